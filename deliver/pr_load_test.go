package deliver

import (
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestRenamedFileWithoutPatchHasNoHunks: GitHub lists a file renamed
// without a change as renamed, with no patch; the clone's `git diff
// --no-renames` would call every line of it added, lines GitHub's diff
// lacks, and GitHub would refuse the whole review (422). Its findings take
// the file's entry; the clone is not asked.
func TestRenamedFileWithoutPatchHasNoHunks(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	head := prFixture(t, srv)
	moved := "package db\n\nfunc Moved() {}\n"
	srv.SetHead(testRepo, 2, headSHA, []ghtest.File{{Path: "db.go", Base: "package db\n\nfunc Open() {\n" + lines("a", 20) + "}\n", Head: head["db.go"]},
		{Path: "notes.md", Head: head["notes.md"]}, {Path: "pkg/moved.go", Previous: "old/moved.go", Base: moved, Head: moved}})
	head["pkg/moved.go"] = moved
	c := newClient(t, srv, ghtest.TokenActions, &fakeSleep{})
	src := &countingSource{}
	r := response("lint", agc.Block, finding("lint", "moved", "pkg/moved.go:1", agc.Blocking), finding("lint", "ping", "db.go:4", agc.Blocking))
	rep, log, err := deliverAt(t, c, headSHA, r, head, src)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log)
	}
	got := map[string]string{}
	for _, p := range rep.Reviews["lint"].Placed {
		got[p.Finding.ID] = p.Channel.String()
	}
	if got["lint/moved"] != "file" || got["lint/ping"] != "inline" || src.asked != 0 {
		t.Errorf("channels %v, %d diffs asked of the clone; want the renamed file's finding on its entry, none asked", got, src.asked)
	}
}
