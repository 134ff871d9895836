package action

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
)

// benchPR makes a pull request of files files, each adding perFile
// functions, and a block response with one patch finding per function.
func benchPR(tb testing.TB, srv *ghtest.Server, root string, files, perFile int) []byte {
	r := &agc.Response{
		AGC: agc.Version, Gate: agc.Gate{ID: "bench", Kind: agc.Deterministic, Version: "1"},
		Subject: agc.Subject{Kind: agc.SubjectPullRequest, Fingerprint: "sha256:00", Scope: []string{"pkg/**"}},
		Verdict: agc.Block, Coverage: agc.Coverage{Complete: true, Classes: []string{"old-call"}},
		Attempt: agc.Attempt{N: 1, Budget: 3},
	}
	var ghFiles []ghtest.File
	for i := range files {
		path := fmt.Sprintf("pkg/p%02d/file.go", i)
		var head strings.Builder
		head.WriteString("package p\n\n")
		for k := range perFile {
			fmt.Fprintf(&head, "func F%d() { old(%d) }\n", k, k)
			loc := fmt.Sprintf("%s#F%d", path, k)
			r.Findings = append(r.Findings, agc.Finding{
				ID: "bench/old-call/" + loc, Class: "old-call", Location: loc,
				What: "F calls old.", Why: "Rule old-call: use new.", Severity: agc.Blocking, Status: agc.StatusNew,
				Remedy: agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: path,
					Find: fmt.Sprintf("func F%d() { old(%d) }\n", k, k), Replace: fmt.Sprintf("func F%d() { new(%d) }\n", k, k)}}},
				Check: agc.Check{Kind: agc.CheckCommand, Run: "go vet ./pkg/..."},
			})
		}
		ghFiles = append(ghFiles, ghtest.File{Path: path, Base: "package p\n", Head: head.String()})
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(head.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	srv.SetHead(prfixture.Repo, 2, prfixture.HeadSHA, ghFiles)
	data, err := agc.Encode(r)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkAction1000 runs the Action's entry point from start to exit
// on 1,000 findings over 50 files of a pull request, against the GitHub
// emulator: first run each iteration on a fresh emulator (reviews, check
// run, annotations all posted). It reports the process's peak RSS.
func BenchmarkAction1000(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		srv := ghtest.New(b, ghtest.Options{})
		root := b.TempDir()
		data := benchPR(b, srv, root, 50, 20)
		writeFile(b, root, "gate.json", data)
		r := newActionRunner(b, srv, root, "pull_request", prfixture.Event).input("agc", "gate.json").input("fail-on", "never")
		b.StartTimer()
		code := r.quietRun()
		b.StopTimer()
		if code != cmdenv.ExitOK {
			b.Fatalf("exit %d", code)
		}
		b.StartTimer()
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}

// quietRun runs the Action as run does, its log discarded.
func (r *actionRunner) quietRun() int {
	return Main(context.Background(), &cmdenv.Env{Stdin: strings.NewReader(""), Stdout: discard{}, Stderr: discard{},
		Getenv: func(k string) string { return r.env[k] }, Version: "bench", Sleep: r.sleeps.Sleep})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestBenchPRDeliversEveryFinding(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	root := t.TempDir()
	data := benchPR(t, srv, root, 5, 4)
	writeFile(t, root, "gate.json", data)
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("agc", "gate.json").input("fail-on", "never")
	if code, out := r.run(); code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	pr := srv.PR(prfixture.Repo, 2)
	n := 0
	for _, c := range pr.Comments {
		if strings.Contains(c.Body, "```suggestion") {
			n++
		}
	}
	if n != 20 {
		t.Fatalf("%d suggestions, want one per finding (20)", n)
	}
}
