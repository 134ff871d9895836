package carry

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/subject"
)

// fixed is a Fingerprinter that selects the given entries at every rev.
func fixed(entries ...subject.Entry) Fingerprinter {
	return func(_ context.Context, s subject.Options) (*subject.Result, error) {
		return &subject.Result{Commit: strings.Repeat("c", 40), Scope: s.Scope, Fingerprint: "sha256:" + s.Rev,
			Gate: subject.Gate{ID: s.GateID, Version: s.GateVersion, Configs: []subject.Config{{Path: ".agc/review.md"}}},
			Tree: subject.Tree{All: entries, Selected: entries}}, nil
	}
}

func TestBind(t *testing.T) {
	ctx := context.Background()
	scope, _ := subject.ParseScope([]string{"src/**", "!src/gen/**"})
	w := Workflow{Scope: scope, ScopeFrom: "scope input", GateConfigs: []string{".agc/review.md"}}
	gate := agc.Gate{ID: "review", Version: "1.0"}
	head := strings.Repeat("a", 40)
	a := subject.Entry{Path: "src/a.go", Mode: "100644", Type: "blob", OID: strings.Repeat("1", 40)}

	b, err := Bind(ctx, fixed(a), w, gate, head, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want := Binding{Gate: "review", GateVersion: "1.0", SHA: head, Commit: strings.Repeat("c", 40), Fingerprint: "sha256:HEAD",
		Scope: []string{"!src/gen/**", "src/**"}, ScopeFrom: "scope input", GateConfigs: []string{".agc/review.md"}, Entries: 1}
	if d := cmp.Diff(want, b); d != "" {
		t.Errorf("binding (-want +got):\n%s", d)
	}

	if _, err := Bind(ctx, fixed(a), Workflow{}, gate, head, "HEAD"); !errors.Is(err, ErrNoScope) {
		t.Errorf("no scope: %v, want ErrNoScope", err)
	}
	if _, err := Bind(ctx, fixed(), w, gate, head, "HEAD"); err == nil || !strings.Contains(err.Error(), "selects no entry") {
		t.Errorf("a scope that selects nothing: %v", err)
	}

	docs := []agc.Doc{
		{Response: &agc.Response{Gate: gate, Subject: agc.Subject{Kind: agc.SubjectPullRequest}}},
		{Response: &agc.Response{Gate: agc.Gate{ID: "agc-validate"}, Subject: agc.Subject{Kind: agc.SubjectArtifact}}},
	}
	got, errs := BindAll(ctx, fixed(a), w, head, "HEAD", docs)
	if len(errs) != 0 || len(got) != 1 || got["review"].Fingerprint != "sha256:HEAD" {
		t.Errorf("BindAll = %v, %v; want review bound, agc-validate (an artifact) left alone", got, errs)
	}
	if _, errs := BindAll(ctx, fixed(a), Workflow{}, head, "HEAD", docs); len(errs) != 1 || !strings.Contains(errs[0].Error(), "gate review: ") {
		t.Errorf("BindAll without a scope: %v", errs)
	}
}

func TestBindingEmbedRoundTrip(t *testing.T) {
	b := Binding{Gate: "review", GateVersion: "1.0", SHA: strings.Repeat("a", 40), Commit: strings.Repeat("b", 64),
		Fingerprint: "sha256:00", Scope: []string{"src/**"}, ScopeFrom: "scope-file .agc/scope at origin/main -->", Entries: 3,
		CarriedTo: strings.Repeat("d", 40)}
	text := EmbedBinding(b) + "The full AGC response is embedded below.\n"
	got, err := ReadBinding(text)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&b, got); d != "" {
		t.Errorf("read back (-want +got):\n%s", d)
	}
	if strings.Count(EmbedBinding(b), "-->") != 1 {
		t.Errorf("the record's own text closes the comment early:\n%s", EmbedBinding(b))
	}
}

// Only a record at the very start of the text is read, and only one
// agc-action writes.
func TestReadBindingRefuses(t *testing.T) {
	good := Binding{Gate: "review", SHA: strings.Repeat("a", 40), Commit: strings.Repeat("a", 40), Fingerprint: "sha256:00",
		Scope: []string{"src/**"}, ScopeFrom: "scope input", Entries: 1}
	if b, err := ReadBinding("Some text first.\n" + EmbedBinding(good)); b != nil || err != nil {
		t.Errorf("a record after other text was read: %+v, %v", b, err)
	}
	if b, err := ReadBinding(""); b != nil || err != nil {
		t.Errorf("no text: %+v, %v", b, err)
	}
	raw := func(json string) string {
		return bindingOpen + base64.StdEncoding.EncodeToString([]byte(json)) + "\n-->\n"
	}
	for name, text := range map[string]string{
		"not closed":     bindingOpen + "e30=\n",
		"not base64":     bindingOpen + "!!!\n-->\n",
		"unknown member": raw(`{"gate":"review","sha":"` + good.SHA + `","commit":"` + good.SHA + `","fingerprint":"sha256:00","scope":[],"scope_from":"x","entries":1,"extra":1}`),
		"short sha":      embedWith(good, func(b *Binding) { b.SHA = "abc" }),
		"option as sha":  embedWith(good, func(b *Binding) { b.Commit = "--upload-pack=" + strings.Repeat("a", 26) }),
		"no entries":     embedWith(good, func(b *Binding) { b.Entries = 0 }),
		"no gate":        embedWith(good, func(b *Binding) { b.Gate = "" }),
		"bad scope":      embedWith(good, func(b *Binding) { b.Scope = []string{"/abs"} }),
		"bad carried to": embedWith(good, func(b *Binding) { b.CarriedTo = "HEAD" }),
	} {
		if b, err := ReadBinding(text); err == nil {
			t.Errorf("%s: read %+v", name, b)
		}
	}
}

func embedWith(b Binding, f func(*Binding)) string {
	f(&b)
	return EmbedBinding(b)
}
