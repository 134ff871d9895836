package review

// FileDiff is what a pull request changes in one file: which head lines
// can carry a review comment, and in which hunk.
type FileDiff struct {
	Path   string
	Status string // added, modified, removed, renamed, ...
	Hunks  []Hunk
	// NoPatch is set when GitHub listed the file without its patch (a
	// binary file, or a diff too large to show): its hunks, if any, come
	// from elsewhere (the clone), else a finding in it is not inline.
	NoPatch bool
	right   map[int]rightLine
}

type rightLine struct {
	hunk  int
	added bool
}

// NewFileDiff indexes a file's parsed hunks.
func NewFileDiff(path, status string, hunks []Hunk) *FileDiff {
	d := &FileDiff{Path: path, Status: status, Hunks: hunks, right: map[int]rightLine{}}
	for k, h := range hunks {
		for _, l := range h.Lines {
			if l.Kind != Deleted {
				d.right[l.New] = rightLine{k, l.Kind == Added}
			}
		}
	}
	return d
}

// InOneHunk reports whether head lines start..end all lie on the right side
// of one hunk (added or context lines).
func (d *FileDiff) InOneHunk(start, end int) bool {
	if d == nil || start < 1 || end < start {
		return false
	}
	a, ok1 := d.right[start]
	b, ok2 := d.right[end]
	return ok1 && ok2 && a.hunk == b.hunk
}

// AnyAdded reports whether any head line in start..end was added.
func (d *FileDiff) AnyAdded(start, end int) bool {
	if d == nil {
		return false
	}
	for l := start; l <= end && l-start < 100000; l++ {
		if d.right[l].added {
			return true
		}
	}
	return false
}
