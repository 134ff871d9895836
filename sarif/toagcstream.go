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
// is read in place (no copy of data). Each finding is converted, encoded
// and written as its result is read; what comes before the findings in the
// response and depends on all of them (the run's fingerprint, the verdict)
// is written with stand-ins of the same length and written again at the
// end when w can seek (a file), else found by reading the run once before.
//
// ok is false for a log this does not stream: one larger than the limit,
// one ReadLog refuses, one with other than one run, a run Write wrote
// (restored whole), a run without findings or one the one-pass decoder
// declines (see streamRun). What was written is then to be discarded (w is
// not written to at all when it cannot seek); ReadLog and ToAGC read the
// log, and say what is wrong with it. verdict is the response's; lints are
// ReadLog's and ToAGC's, naming file.
func StreamAGC(w io.Writer, data []byte, file string, ropts ReadOptions, topts ToAGCOptions) (verdict string, lints []diag.Lint, ok bool, err error) {
	if int64(len(data)) > ropts.maxBytes() {
		return "", nil, false, nil
	}
	_, raws, err := parseTop(bytes.TrimLeft(data, " \t\r\n"), lead{}, file)
	if err != nil || len(raws) != 1 || raws[0].Kind() != '{' {
		return "", nil, false, nil
	}
	s := &findingStream{raw: raws[0], ropts: ropts, topts: topts, src: NewSource(topts.FS)}
	if ws, seekable := w.(io.WriteSeeker); seekable {
		if wa, ok := w.(io.WriterAt); ok {
			if at, err := ws.Seek(0, io.SeekCurrent); err == nil {
				ok, err = s.once(w, wa, at)
				return s.done(ok, err, file)
			}
		}
	}
	ok, err = s.twice(w)
	return s.done(ok, err, file)
}

// placeholder stands for the run's fingerprint until it is known: as long
// as every fingerprint ("sha256:" and 64 hex digits).
var placeholder = "sha256:" + string(bytes.Repeat([]byte("0"), 64))

// findingStream converts one run's results to findings and writes them.
type findingStream struct {
	raw   []byte
	ropts ReadOptions
	topts ToAGCOptions
	src   *Source
	rd    *reader
	// converted are the lints of converting the findings (ToAGC's), kept
	// apart from the reader's so that they follow them.
	converted diag.Lints

	head    *agc.Response // the response without its findings
	run     *Run
	bw      *bufio.Writer
	ids     agc.FindingIDs
	others  []xRecord
	classes []agc.Finding // one per class, in order of first appearance
	seen    map[string]bool
	n       int
	blocks  bool
	err     error
}

// start makes the response around the findings, from the run's head.
func (s *findingStream) start(w io.Writer, run *Run) bool {
	if _, restored := run.Props[propVersion]; restored {
		return false
	}
	s.run, s.head = run, convertRun(run, s.src, s.topts, nil) // its findings are streamed: add

	s.bw = bufio.NewWriterSize(w, 64<<10)
	s.ids, s.seen = agc.FindingIDs{}, map[string]bool{}
	return true
}

// add converts, encodes and writes one result's finding, or keeps it as
// one of the other results.
func (s *findingStream) add(res *Result) {
	if !makesFinding(res) {
		s.others = append(s.others, otherRecord(res))
		return
	}
	f := finding(s.run, res, agc.ToolGateID(s.run.Driver.Name), s.src, s.topts, &s.converted)
	f.ID = s.ids.Unique(f.ID)
	s.blocks = s.blocks || f.Severity == agc.Blocking
	if !s.seen[f.Class] {
		s.seen[f.Class] = true
		s.classes = append(s.classes, agc.Finding{Class: f.Class})
	}
	text, err := encodeFinding(&f)
	if err != nil && s.err == nil {
		s.err = err
	}
	if s.n > 0 {
		s.bw.WriteString(",\n" + findingIndent)
	}
	s.n++
	s.bw.Write(text)
}

// end completes the response: verdict, coverage, the other results.
func (s *findingStream) end(fingerprint string) {
	s.head.Subject.Fingerprint = fingerprint
	if s.blocks {
		s.head.Verdict = agc.Block
	}
	s.head.Coverage = coverage(s.run, s.classes, s.others)
	if len(s.others) > 0 {
		s.head.Unknown = xResponseMember(&xResponse{Results: s.others})
	}
}

// once reads the run once, writing the start of the response with the
// placeholder fingerprint and verdict allow, and writes it again at offset
// at of w once they are known.
func (s *findingStream) once(w io.Writer, wa io.WriterAt, at int64) (bool, error) {
	var before []byte
	s.rd = &reader{}
	run, ok := s.rd.streamRunEach(s.raw, "/runs/0", map[string]string{}, s.ropts, func(run *Run) bool {
		if !s.start(w, run) {
			return false
		}
		s.head.Subject.Fingerprint = placeholder
		var err error
		if before, _, err = spliceFindings(s.head); err != nil {
			s.err = err
			return false
		}
		s.bw.Write(before)
		return true
	}, func(res *Result) { s.add(res) })
	if !ok || s.err != nil || s.n == 0 {
		return false, s.err
	}
	s.end(run.Fingerprint)
	again, after, err := spliceFindings(s.head)
	if err != nil || len(again) != len(before) {
		return false, err // a verdict or fingerprint of another length: read it whole
	}
	s.bw.Write(after)
	if err := s.bw.Flush(); err != nil {
		return false, err
	}
	_, err = wa.WriteAt(again, at)
	return err == nil, err
}

// twice reads the run once for its fingerprint and verdict, and again to
// write the findings after them.
func (s *findingStream) twice(w io.Writer) (bool, error) {
	s.rd = &reader{}
	findings, blocking := 0, false
	run, ok := s.rd.streamRunEach(s.raw, "/runs/0", map[string]string{}, s.ropts, nil, func(res *Result) {
		if makesFinding(res) {
			findings++
			blocking = blocking || blocks(res, s.topts)
		}
	})
	if !ok || findings == 0 {
		return false, nil
	}
	if !s.start(w, run) {
		return false, nil
	}
	s.head.Subject.Fingerprint, s.blocks = run.Fingerprint, blocking
	if blocking {
		s.head.Verdict = agc.Block
	}
	before, _, err := spliceFindings(s.head)
	if err != nil {
		return false, err
	}
	s.bw.Write(before)
	again := &reader{}
	if _, ok = again.streamRunEach(s.raw, "/runs/0", map[string]string{}, s.ropts, nil, func(res *Result) { s.add(res) }); !ok || s.n != findings {
		return false, errors.New("sarif: the log read differently the second time")
	}
	if s.err != nil {
		return false, s.err
	}
	s.end(run.Fingerprint)
	_, after, err := spliceFindings(s.head)
	if err != nil {
		return false, err
	}
	s.bw.Write(after)
	return true, s.bw.Flush()
}

func (s *findingStream) done(ok bool, err error, file string) (string, []diag.Lint, bool, error) {
	if !ok || err != nil {
		return "", nil, false, err
	}
	// ReadLog's lints, then ToAGC's, as the buffered conversion has them.
	lints := append(s.rd.lints.List(), s.converted.List()...)
	for i := range lints {
		lints[i].File = file
	}
	return s.head.Verdict, lints, true, nil
}

// makesFinding is whether a result becomes a finding (convertRun): it
// failed, is not suppressed and is not absent from the baseline.
func makesFinding(res *Result) bool {
	return res.Kind == "fail" && !res.Suppressed && res.BaselineState != "absent"
}

// blocks is whether the finding of a result blocks: its level is at or
// above the level that fails.
func blocks(res *Result, opts ToAGCOptions) bool {
	return levelRank[res.Level] >= opts.failRank()
}

// findingIndent is the indentation of a finding in agc.Encode's output: an
// element of the findings array of the response object.
const findingIndent = "    "

// encodeFinding is f as agc.Encode writes it in a response's findings.
func encodeFinding(f *agc.Finding) ([]byte, error) {
	return json.Marshal(f, jsontext.WithIndent("  "), jsontext.WithIndentPrefix(findingIndent), json.Deterministic(true))
}

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
	stand, err := encodeFinding(&skel.Findings[0])
	if err != nil {
		return nil, nil, err
	}
	i := bytes.Index(text, stand)
	if i < 0 || bytes.Count(text, stand) != 1 {
		return nil, nil, errors.New("sarif: the stand-in finding is not in the encoded response once")
	}
	return text[:i], text[i+len(stand):], nil
}
