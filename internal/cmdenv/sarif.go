package cmdenv

import (
	"path/filepath"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/formats"
)

// SARIFRun is one run of a SARIF log read as a gate's answer.
type SARIFRun struct {
	Response *agc.Response
	Tool     string // the run's tool.driver.name, which its gate id is made from
}

// GateSARIF reads a SARIF log as gates' answers, one per run, as the
// format registry's sarif reader does: the one path github and the Action
// share. Paths are relative to root, and lines are read through it as a
// source root.
func GateSARIF(name string, data []byte, root, failLevel string) ([]SARIFRun, []diag.Lint, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	rs, tools, lints, err := formats.ReadSARIFRuns(name, data, formats.ReadOptions{FS: MustSourceFS(abs), Root: filepath.ToSlash(abs), FailLevel: failLevel})
	if err != nil {
		return nil, lints, err
	}
	out := make([]SARIFRun, len(rs))
	for i, r := range rs {
		out[i] = SARIFRun{Response: r}
		if i < len(tools) { // one response per run
			out[i].Tool = tools[i]
		}
	}
	return out, lints, nil
}
