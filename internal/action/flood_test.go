package action

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/prfixture"
	"github.com/agcgate/agc-action/review"
)

// writeFloodSARIF writes into the workspace root, without holding it in
// memory, a SARIF log name of runs runs (tools flood00, flood01, ...), each
// with results results at error level spread over files files
// pkg/fNN.go, which it writes too: what a judged party's linter
// configuration can make a workflow deliver.
func writeFloodSARIF(tb testing.TB, root, name string, runs, results, files int) {
	perFile := (results + files - 1) / files
	for i := range files {
		p := filepath.Join(root, fmt.Sprintf("pkg/f%02d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		var b strings.Builder
		b.WriteString("package pkg\n")
		for k := range perFile {
			fmt.Fprintf(&b, "var v%d = %d\n", k, k)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(root, name))
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[`)
	for r := range runs {
		if r > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, `{"tool":{"driver":{"name":"flood%02d","rules":[{"id":"F1","shortDescription":{"text":"flood"}}]}},"results":[`, r)
		for i := range results {
			if i > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(w, `{"ruleId":"F1","level":"error","message":{"text":"finding %d of run %d"},`+
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"pkg/f%02d.go"},"region":{"startLine":%d}}}]}`,
				i, r, i%files, 2+i/files)
		}
		w.WriteString("]}")
	}
	w.WriteString("]}\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// countingWriter counts what the Action logs and keeps nothing.
type countingWriter struct{ n, lines int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	c.lines += int64(strings.Count(string(p), "\n"))
	return len(p), nil
}

// BenchmarkPreview20x25000 runs the Action in preview on 20 SARIF runs of
// 25,000 results each (GitHub's limits on one upload) on a pull request,
// without a token: the case of a judged party flooding the log. It reports
// the log's size and the process's peak RSS:
//
//	go test ./internal/action -run '^$' -bench Preview20x25000 -benchtime 1x
func BenchmarkPreview20x25000(b *testing.B) {
	root := b.TempDir()
	writeFloodSARIF(b, root, "flood.sarif", 20, 25000, 50)
	var log countingWriter
	for b.Loop() {
		log = countingWriter{}
		env := map[string]string{
			"GITHUB_REPOSITORY": prfixture.Repo, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": prfixture.Event,
			"GITHUB_WORKSPACE": root, "RUNNER_TEMP": root,
			"INPUT_SARIF": "flood.sarif", "INPUT_PREVIEW": "true",
		}
		code := Main(context.Background(), &cmdenv.Env{Stdin: strings.NewReader(""), Stdout: &log, Stderr: discard{},
			Getenv: func(k string) string { return env[k] }, Version: "bench", Sleep: (&ghtest.Sleeps{}).Sleep})
		if code != cmdenv.ExitOK {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(log.n)/(1<<20), "log-MiB")
	b.ReportMetric(float64(log.lines), "log-lines")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}

// TestPreviewFloodIsBounded: a preview prints the requests the ceiling
// allows, and a notice per gate of how many findings it kept off the pull
// request and where they are.
func TestPreviewFloodIsBounded(t *testing.T) {
	srv := ghtest.New(t, ghtest.Options{})
	srv.SetHead(prfixture.Repo, 2, prfixture.HeadSHA, []ghtest.File{{Path: "README.md", Base: "a\n", Head: "b\n"}})
	root := t.TempDir()
	writeFloodSARIF(t, root, "flood.sarif", 3, 2000, 20)
	r := newActionRunner(t, srv, root, "pull_request", prfixture.Event).input("sarif", "flood.sarif").input("preview", "true")
	code, stdout := r.run()
	if code != cmdenv.ExitOK {
		t.Fatalf("exit %d\n%s", code, stdout[max(0, len(stdout)-3000):])
	}
	if n := writes(srv); n != 0 {
		t.Errorf("preview wrote %d times", n)
	}
	if n, ceiling := strings.Count(stdout, "--- dry-run request "), review.WriteCeiling(3, false); n > ceiling {
		t.Errorf("%d requests printed, over the ceiling of %d", n, ceiling)
	}
	for g := range 3 {
		want := fmt.Sprintf("::notice title=agc-action::agc/flood%02d: 0 findings inline, ", g)
		if !strings.Contains(stdout, want) || !strings.Contains(stdout, "not in the review (its check run lists them, or says where those it has no room for are)") {
			t.Errorf("the log lacks %q and where the rest are:\n%.3000s", want, stdout)
		}
	}
}
