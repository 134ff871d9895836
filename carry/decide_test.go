package carry

import (
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/subject"
)

func TestDecide(t *testing.T) {
	scope, err := subject.ParseScope([]string{"src/**"})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := subject.ParseScope([]string{"src/a.go"})
	a := subject.Entry{Path: "src/a.go", Mode: "100644", Type: "blob", OID: strings.Repeat("a", 40)}
	a2 := a
	a2.OID = strings.Repeat("b", 40)
	then := &subject.Result{Commit: "c1", Scope: scope, Fingerprint: "sha256:1",
		Tree: subject.Tree{All: []subject.Entry{a}, Selected: []subject.Entry{a}}}
	same := &subject.Result{Commit: "c2", Scope: scope, Fingerprint: "sha256:1", Tree: then.Tree}
	edited := &subject.Result{Commit: "c2", Scope: scope, Fingerprint: "sha256:2",
		Tree: subject.Tree{All: []subject.Entry{a2}, Selected: []subject.Entry{a2}}}
	rescoped := &subject.Result{Commit: "c2", Scope: other, Fingerprint: "sha256:3", Tree: then.Tree}

	for _, tc := range []struct {
		name string
		j    Judged
		now  *subject.Result
		want Decision
	}{
		{"unchanged", Judged{Fingerprint: "sha256:1", Scope: scope}, same, Decision{Carried: true}},
		{"unchanged, judged commit recomputed", Judged{Fingerprint: "sha256:1", Scope: scope, At: then}, same, Decision{Carried: true}},
		{"edited, judged commit unknown", Judged{Fingerprint: "sha256:1", Scope: scope}, edited, Decision{}},
		{"edited", Judged{Fingerprint: "sha256:1", Scope: scope, At: then}, edited, Decision{Changes: []string{"src/a.go modified"}}},
		{"judged elsewhere", Judged{Fingerprint: "sha256:0", Scope: scope, At: then}, edited,
			Decision{Stale: true, Changes: []string{"src/a.go modified"}}},
		{"judged elsewhere, same now", Judged{Fingerprint: "sha256:1", Scope: scope, At: edited}, same,
			Decision{Stale: true, Changes: []string{"src/a.go modified"}}},
		{"scope changed", Judged{Fingerprint: "sha256:1", Scope: scope}, rescoped, Decision{ScopeChanged: true}},
	} {
		got := Decide(tc.j, tc.now)
		if got.Carried != tc.want.Carried || got.Stale != tc.want.Stale || got.ScopeChanged != tc.want.ScopeChanged || !slices.Equal(got.Changes, tc.want.Changes) {
			t.Errorf("%s: Decide = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestTreeSubjectAndShort(t *testing.T) {
	for kind, want := range map[string]bool{agc.SubjectDiff: true, agc.SubjectCommit: true, agc.SubjectPullRequest: true,
		agc.SubjectToolCall: false, agc.SubjectArtifact: false, "session": false, "": false} {
		if TreeSubject(kind) != want {
			t.Errorf("TreeSubject(%q) = %v, want %v", kind, !want, want)
		}
	}
	if got := Short("3f2a9c1e18039b84c4ac1a41f4f2600f1de01ad0"); got != "3f2a9c1" {
		t.Errorf("Short = %q", got)
	}
	if got := Short("abc"); got != "abc" {
		t.Errorf("Short of a short id = %q", got)
	}
}
