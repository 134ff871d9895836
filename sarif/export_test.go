package sarif

import (
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// ReadOptions and ToAGCOptions are Options split as the tests written
// before Read pass them.
type (
	ReadOptions  = Options
	ToAGCOptions = Options
)

// Log is a SARIF log as read.
type Log struct {
	Version string
	Runs    []*Run
}

// ReadLog reads a log with Read's reader and keeps each run's results in
// the model, for the tests that look into it.
func ReadLog(r io.Reader, file string, opts Options) (*Log, []diag.Lint, error) {
	data, err := io.ReadAll(io.LimitReader(r, opts.maxBytes()+1))
	if err != nil {
		return nil, nil, err
	}
	if _, err := Read(data, file, Options{MaxBytes: opts.MaxBytes}); err != nil {
		return nil, nil, err // refused before a run is kept
	}
	raws, _ := parseTop(data, file)
	log := &Log{Version: "2.1.0"}
	rd := &reader{}
	names := map[string]string{}
	for i, raw := range raws {
		var run *Run
		var results []*Result
		run, _ = rd.readRun(raw, ptrIdx("/runs", i), names, opts, func(*Run, int) {}, func(res *Result) { results = append(results, res) })
		run.Results = results
		log.Runs = append(log.Runs, run)
	}
	lints := rd.lints.List()
	for i := range lints {
		lints[i].File = file
	}
	return log, lints, nil
}

// ToAGC converts each run of log as Read converts the runs it reads.
func ToAGC(log *Log, opts Options) ([]*agc.Response, []diag.Lint) {
	var out []*agc.Response
	var lints diag.Lints
	for _, run := range log.Runs {
		c := &agcRun{opts: opts, src: NewSource(opts.FS), lints: &lints}
		results := run.Results
		run.Results = nil
		c.start(run, 0)
		for _, res := range results {
			c.add(res)
		}
		if !c.restored {
			run.Results = results
		}
		_ = c.end(run)
		out = append(out, c.r)
	}
	return out, lints.List()
}
