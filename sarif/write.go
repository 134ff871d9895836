package sarif

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// GitHub's code scanning upload limits (FACTS.md).
const (
	MaxRuns          = 20
	MaxResultsPerRun = 25000
	MaxRulesPerRun   = 25000
	MaxLocations     = 1000
	MaxTagsPerRule   = 20
	MaxGzippedBytes  = 10 << 20
)

// LimitError is a log GitHub would reject for its size.
type LimitError struct {
	Pointer string
	Limit   string
	Count   int
	Max     int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %d %s, GitHub accepts at most %d", where(e.Pointer), e.Count, e.Limit, e.Max)
}

// Marshal encodes a report as compact JSON with a trailing newline (an
// indented log is a third larger and twice as slow to write; GitHub and
// viewers do not care). The go-sarif types carry encoding/json tags, so
// encoding/json writes them.
func Marshal(rep *gosarif.Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	return buf.Bytes(), nil
}

// CheckLimits checks a report against GitHub's limits on runs, results,
// rules, locations and tags. The size limit is CheckSize's.
func CheckLimits(rep *gosarif.Report) error {
	if n := len(rep.Runs); n > MaxRuns {
		return &LimitError{Pointer: "/runs", Limit: "runs", Count: n, Max: MaxRuns}
	}
	for i, run := range rep.Runs {
		p := ptrIdx("/runs", i)
		if n := len(run.Results); n > MaxResultsPerRun {
			return &LimitError{Pointer: p + "/results", Limit: "results in one run", Count: n, Max: MaxResultsPerRun}
		}
		if run.Tool.Driver != nil {
			if n := len(run.Tool.Driver.Rules); n > MaxRulesPerRun {
				return &LimitError{Pointer: p + "/tool/driver/rules", Limit: "rules in one run", Count: n, Max: MaxRulesPerRun}
			}
			for j, r := range run.Tool.Driver.Rules {
				if tags, ok := r.Properties["tags"].([]string); ok && len(tags) > MaxTagsPerRule {
					return &LimitError{Pointer: fmt.Sprintf("%s/tool/driver/rules/%d/properties/tags", p, j), Limit: "tags on one rule", Count: len(tags), Max: MaxTagsPerRule}
				}
			}
		}
		for j, res := range run.Results {
			if n := len(res.Locations); n > MaxLocations {
				return &LimitError{Pointer: fmt.Sprintf("%s/results/%d/locations", p, j), Limit: "locations on one result", Count: n, Max: MaxLocations}
			}
		}
	}
	return nil
}

// CheckSize checks that data, gzipped, is within GitHub's upload limit.
func CheckSize(data []byte) error {
	var cw countWriter
	zw := gzip.NewWriter(&cw)
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if cw.n > MaxGzippedBytes {
		return &LimitError{Limit: "bytes gzipped", Count: int(cw.n), Max: MaxGzippedBytes}
	}
	return nil
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
