package sarif

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// StreamAGC converts the SARIF log in data to AGC and writes it to w: the
// bytes agc.Encode gives for the one response ToAGC makes of ReadLog's log,
// without holding the log's results or the response's findings. The log
// is read in place (no copy of data) and its run twice: once for what
// comes before the findings in the response (the run's fingerprint, the
// verdict), once to convert, encode and write each finding as it is read.
//
// ok is false, with nothing written, for a log this does not stream: one
// larger than the limit, one ReadLog refuses, one with other than one run,
// a run FromAGC wrote (restored whole), a run without findings or one the
// one-pass decoder declines (see decodeRun). ReadLog and ToAGC then read
// it, and say what is wrong with it. verdict is the response's; lints are
// ReadLog's and ToAGC's, naming file.
func StreamAGC(w io.Writer, data []byte, file string, ropts ReadOptions, topts ToAGCOptions) (verdict string, lints []diag.Lint, ok bool, err error) {
	if int64(len(data)) > ropts.maxBytes() {
		return "", nil, false, nil
	}
	body := bytes.TrimLeft(data, " \t\r\n")
	log, raws, err := parseTop(body, lead{}, file)
	if err != nil || len(raws) != 1 || raws[0].Kind() != '{' {
		return "", nil, false, nil
	}
	_ = log
	// Pass 1: the run's head, fingerprint and lints; the verdict.
	src := NewSource(topts.FS)
	rd := &reader{}
	findings, blocks := 0, false
	run, ok := rd.streamRunEach(raws[0], "/runs/0", map[string]string{}, ropts, func(res *Result) {
		if makesFinding(res) {
			findings++
			blocks = blocks || levelRank[res.Level] >= topts.failRank()
		}
	})
	if !ok || findings == 0 {
		return "", nil, false, nil
	}
	if _, restored := run.Props[propVersion]; restored {
		return "", nil, false, nil
	}
	head := convertRun(run, src, topts) // no results: the response around the findings
	if blocks {
		head.Verdict = agc.Block
	}
	before, _, err := spliceFindings(head)
	if err != nil {
		return "", nil, false, err
	}

	// Pass 2: each finding converted, encoded and written as it is read.
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(before)
	gate := GateID(run.Driver.Name)
	ids := FindingIDs{}
	var others []xRecord
	var classes []agc.Finding // one per class, in order of first appearance
	seen := map[string]bool{}
	n := 0
	var encErr error
	again := &reader{}
	_, ok = again.streamRunEach(raws[0], "/runs/0", map[string]string{}, ropts, func(res *Result) {
		if !makesFinding(res) {
			others = append(others, otherRecord(res))
			return
		}
		f := finding(run, res, gate, src, topts)
		f.ID = ids.Unique(f.ID)
		if !seen[f.Class] {
			seen[f.Class] = true
			classes = append(classes, agc.Finding{Class: f.Class})
		}
		text, err := json.Marshal(&f, jsontext.WithIndent("  "), jsontext.WithIndentPrefix(findingIndent), json.Deterministic(true))
		if err != nil && encErr == nil {
			encErr = err
		}
		if n > 0 {
			bw.WriteString(",\n" + findingIndent)
		}
		n++
		bw.Write(text)
	})
	switch {
	case !ok || n != findings:
		return "", nil, false, errors.New("sarif: the log read differently the second time")
	case encErr != nil:
		return "", nil, false, encErr
	}
	head.Coverage = coverage(run, classes, others)
	if len(others) > 0 {
		head.Unknown = xResponseMember(&xResponse{Results: others})
	}
	_, after, err := spliceFindings(head)
	if err != nil {
		return "", nil, false, err
	}
	bw.Write(after)
	if err := bw.Flush(); err != nil {
		return "", nil, false, err
	}
	lints = rd.lints
	for i := range lints {
		lints[i].File = file
	}
	return head.Verdict, lints, true, nil
}

// makesFinding is whether a result becomes a finding (convertRun): it
// failed, is not suppressed and is not absent from the baseline.
func makesFinding(res *Result) bool {
	return res.Kind == "fail" && !res.Suppressed && res.BaselineState != "absent"
}

// findingIndent is the indentation of a finding in agc.Encode's output: an
// element of the findings array of the response object.
const findingIndent = "    "

// spliceFindings encodes r as agc.Encode does with one stand-in finding in
// place of its findings, and returns the text before and after it: what a
// writer of the findings one at a time writes around them.
func spliceFindings(r *agc.Response) (before, after []byte, err error) {
	skel := *r
	skel.Findings = []agc.Finding{{ID: "\x00agc-action/sarif stand-in finding\x00"}}
	text, err := agc.Encode(&skel)
	if err != nil {
		return nil, nil, err
	}
	stand, err := json.Marshal(&skel.Findings[0], jsontext.WithIndent("  "), jsontext.WithIndentPrefix(findingIndent), json.Deterministic(true))
	if err != nil {
		return nil, nil, err
	}
	i := bytes.Index(text, stand)
	if i < 0 || bytes.Count(text, stand) != 1 {
		return nil, nil, errors.New("sarif: the stand-in finding is not in the encoded response once")
	}
	return text[:i], text[i+len(stand):], nil
}
