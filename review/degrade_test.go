package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// A read-only token (a fork's pull request, whose author is the judged
// party) reports findings in the log and the job summary instead: both
// bounded, whatever the number of findings, saying how many are not shown.
func TestDegradeIsBounded(t *testing.T) {
	var gates []agc.Doc
	for g := range 20 {
		gate := fmt.Sprintf("flood%02d", g)
		var fs []agc.Finding
		for i := 1; i <= 2000; i++ {
			fs = append(fs, finding(gate, fmt.Sprintf("f%d", i), fmt.Sprintf("a.go:%d", i), agc.Blocking))
		}
		gates = append(gates, agc.Doc{Response: response(gate, agc.Block, fs...)})
	}
	var log, summary strings.Builder
	if err := Degrade(&log, &summary, gates, nil, Links{}); err != nil {
		t.Fatal(err)
	}
	if n, max := strings.Count(log.String(), "\n"), 1+20*(50+1); n > max {
		t.Errorf("%d log lines, want at most %d", n, max)
	}
	if !strings.Contains(log.String(), "::notice title=agc/flood00::1950 more findings of agc/flood00 are not printed here") {
		t.Errorf("the log does not say how many findings it leaves out:\n%.2000s", log.String())
	}
	if n := summary.Len(); n > 1<<20 {
		t.Errorf("%d bytes of job summary, over GitHub's 1 MiB", n)
	}
	if !strings.Contains(summary.String(), "answers are not shown") {
		t.Errorf("the job summary does not say how many answers it leaves out")
	}
}

// TestDegradeWithoutSummary: with no summary writer (the Action writes its
// own job summary) Degrade still writes every gate's annotations.
func TestDegradeWithoutSummary(t *testing.T) {
	gates := []agc.Doc{{Response: response("lint", agc.Block, finding("lint", "f1", "a.go:3", agc.Blocking))}}
	var log strings.Builder
	if err := Degrade(&log, nil, gates, nil, Links{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "::error endLine=3,file=a.go,line=3,") {
		t.Errorf("no annotation for the finding:\n%s", log.String())
	}
}
