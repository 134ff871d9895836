package deliver

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/review"
)

// gitLikeSource fails the whole call, as git diff does, when one path is
// not a path in the tree, and otherwise answers each path as one added
// line.
type gitLikeSource struct{ countingSource }

func (g *gitLikeSource) Diffs(ctx context.Context, base, head string, paths []string) (map[string]fingerprint.PathDiff, error) {
	for _, p := range paths {
		if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") || p == ".." || strings.ContainsAny(p, "\n\x00") {
			return nil, fmt.Errorf("git diff: %q is outside repository", p)
		}
	}
	return g.countingSource.Diffs(ctx, base, head, paths)
}

// TestBadFindingPathsDoNotCancelTheDiffs: the judged party names, beside
// one real file, locations that are no path in the tree. Each is dropped
// and named in the log (safely); the real file's diff is still read.
func TestBadFindingPathsDoNotCancelTheDiffs(t *testing.T) {
	bad := []string{"/etc/passwd", "../x.go", "..", ".", "a//b.go", "a/./b.go", "a/../b.go", "dir/", "a\x01b.go", "a\x7fb.go", "::warning::x.go"}
	fs := []agc.Finding{finding("lint", "good", "big.go:1", agc.Blocking)}
	for i, p := range bad {
		f := finding("lint", fmt.Sprintf("bad%d", i), "big.go:1", agc.Blocking)
		f.Location = p + ":1"
		fs = append(fs, f)
	}
	st := &review.PRState{Number: 2, HeadSHA: headSHA, Truncated: true, Diffs: map[string]*review.FileDiff{}}
	st.Diffs["big.go"] = review.NewFileDiff("big.go", "modified", nil)
	st.Diffs["big.go"].NoPatch = true
	src := &gitLikeSource{}
	var log bytes.Buffer
	(&run{opt: Options{Diffs: src, Log: &log}}).fillDiffs(context.Background(), st, ghtest.DefaultBaseSHA, []agc.Doc{{Response: response("lint", agc.Block, fs...)}})
	if d := st.Diffs["big.go"]; d == nil || d.NoPatch {
		t.Errorf("big.go has no diff from the clone; log:\n%s", log.String())
	}
	if strings.Contains(log.String(), "\n::") || strings.HasPrefix(log.String(), "::") {
		t.Errorf("the log prints a workflow command:\n%s", log.String())
	}
	for path := range st.Diffs {
		if path != "big.go" && path != "::warning::x.go" {
			t.Errorf("a diff was filled for %q", path)
		}
	}
	for _, p := range bad[:len(bad)-1] {
		if !strings.Contains(log.String(), logsafe.Name(p)+": not a path in the tree") {
			t.Errorf("log does not name %q as dropped:\n%s", p, log.String())
		}
	}
}
