package sarif

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// placeholder stands for the run's fingerprint until it is known: as long
// as every fingerprint ("sha256:" and 64 hex digits).
var placeholder = "sha256:" + string(bytes.Repeat([]byte("0"), 64))

// agcWriter writes one response to a file as agc.Encode writes it, each
// finding as it comes. What comes before the findings depends on all of
// them (the fingerprint, the verdict), so it is written with stand-ins of
// the same length (placeholder, allow) and written again in place at the
// end. A response without findings, or restored whole, is written whole.
type agcWriter struct {
	f      File
	at     int64 // where the response starts in f
	bw     *bufio.Writer
	before []byte // what was written before the findings
	n      int    // findings written
	err    error
}

func newAGCWriter(f File) (*agcWriter, error) {
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	return &agcWriter{f: f, at: at, bw: bufio.NewWriterSize(f, 64<<10)}, nil
}

// begin writes the response's text before its findings.
func (w *agcWriter) begin(r *agc.Response) {
	w.before, _, w.err = spliceFindings(r)
	w.bw.Write(w.before)
}

// finding writes one finding.
func (w *agcWriter) finding(f agc.Finding) {
	text, err := encodeFinding(&f)
	if err != nil && w.err == nil {
		w.err = err
	}
	if w.n > 0 {
		w.bw.WriteString(",\n" + findingIndent)
	}
	w.n++
	w.bw.Write(text)
}

// finish writes the text after the findings, and the text before them
// again, now that the fingerprint and the verdict are known.
func (w *agcWriter) finish(r *agc.Response) error {
	if w.err != nil {
		return w.err
	}
	if w.n == 0 {
		return w.whole(r)
	}
	again, after, err := spliceFindings(r)
	if err != nil {
		return err
	}
	if len(again) != len(w.before) {
		return errors.New("sarif: the response's text before its findings changed length")
	}
	w.bw.Write(after)
	if err := w.bw.Flush(); err != nil {
		return err
	}
	_, err = w.f.WriteAt(again, w.at)
	return err
}

// whole writes r whole in place of what was written of it.
func (w *agcWriter) whole(r *agc.Response) error {
	text, err := agc.Encode(r)
	if err != nil {
		return err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if _, err := w.f.WriteAt(text, w.at); err != nil {
		return err
	}
	if err := w.f.Truncate(w.at + int64(len(text))); err != nil {
		return err
	}
	_, err = w.f.Seek(w.at+int64(len(text)), io.SeekStart)
	return err
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
