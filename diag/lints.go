package diag

import "fmt"

// MaxLints is how many lints of one input are kept in full. A log whose
// every result draws a lint would otherwise keep and print one line for
// each (two for a result of "{}": two million lines, and some 20 GB, for
// a log of 256 MiB); the rest are only counted, and one summary lint says
// how many there were. A thousand lines are more than anyone reads in a
// terminal or a job's log, and more than any log of the real corpus draws
// (the most, 890, is a log whose every result names a path outside the
// source root).
const MaxLints = 1000

// Lints collects the lints of one input: the first MaxLints in full, and
// the number of the rest. Its zero value is empty and ready to use.
type Lints struct {
	list []Lint
	more int    // counted and not kept
	file string // the file of the first summary added
}

// Add adds one lint. A summary lint (More > 0) adds the lints it counts.
func (s *Lints) Add(l Lint) {
	switch {
	case l.More > 0:
		if s.more == 0 || s.file == "" {
			s.file = l.File
		}
		s.more += l.More
	case len(s.list) < MaxLints:
		s.list = append(s.list, l)
	default:
		s.more++
	}
}

// Full reports whether the next lint added is only counted, so that a
// caller can leave its message unwritten: Add(Lint{}) counts it.
func (s *Lints) Full() bool { return len(s.list) >= MaxLints }

// Addf adds the lint at p whose message is fmt.Sprintf(format, args...),
// writing the message only when the lint is kept.
func (s *Lints) Addf(p Place, format string, args ...any) {
	if s.Full() {
		s.more++
		return
	}
	s.list = append(s.list, Lint{Place: p, Message: fmt.Sprintf(format, args...)})
}

// AddAll adds each of ls.
func (s *Lints) AddAll(ls []Lint) {
	for _, l := range ls {
		s.Add(l)
	}
}

// Len is how many lints were added, kept or not.
func (s *Lints) Len() int { return len(s.list) + s.more }

// Mark is the state of s, for Reset.
type Mark struct{ kept, more int }

// Mark notes what s holds now.
func (s *Lints) Mark() Mark { return Mark{len(s.list), s.more} }

// Reset forgets the lints added since m.
func (s *Lints) Reset(m Mark) { s.list, s.more = s.list[:m.kept], m.more }

// List is the lints kept and, when more were added, one summary lint at
// the end that says how many were not kept (Summary). It is at most
// MaxLints+1 long however many were added.
func (s *Lints) List() []Lint {
	if s.more == 0 {
		return s.list
	}
	file := s.file
	if file == "" && len(s.list) > 0 {
		file = s.list[0].File
	}
	return append(s.list[:len(s.list):len(s.list)], Summary(file, s.more, s.Len()))
}

// Summary is the lint that stands for more lints of file not kept, of
// total in all. It names no line: it is about the whole input.
func Summary(file string, more, total int) Lint {
	return Lint{Place: Place{File: file}, More: more, Message: fmt.Sprintf("%d more lints not shown (%d in all); the first %d are above", more, total, total-more)}
}

// Bound is ls with at most MaxLints lints in full and one summary lint
// for the rest, such as the lints of two readers of one input joined.
func Bound(ls []Lint) []Lint {
	var s Lints
	s.AddAll(ls)
	return s.List()
}

// Count is how many lints ls stands for: each lint, and what each
// summary lint counts.
func Count(ls []Lint) int {
	n := 0
	for _, l := range ls {
		n += max(l.More, 1)
	}
	return n
}
