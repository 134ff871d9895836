package sarif

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// EncodeTo writes to w the log Encode(responses, opts) returns, limits
// included, but converts and encodes one run at a time: 20 runs of 25,000
// results are over a gigabyte at once, one run is a twentieth of it. A
// run is encoded alone exactly as it is inside a log, so each is spliced
// between the brackets of an empty log's runs, and a limit a run breaks
// is placed at its index in the whole log. Gates answering twice (whose
// categories Encode numbers across the log) are encoded together.
func EncodeTo(w io.Writer, responses []*agc.Response, opts WriteOptions) error {
	if err := checkRuns(len(responses)); err != nil {
		return err
	}
	if !uniqueGates(responses) {
		data, err := Encode(responses, opts)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	head, tail, err := emptyLog(opts)
	if err != nil {
		return err
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	src := NewSource(opts.FS) // each source read once for the log, as Encode reads it
	for i, r := range responses {
		run, err := oneRun(r, i, opts, src, head, tail)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(w, ","); err != nil {
				return err
			}
		}
		if _, err := w.Write(run); err != nil {
			return err
		}
	}
	_, err = w.Write(tail)
	return err
}

// emptyLog is the encoding of a log with no runs, cut around its runs'
// brackets: `{..."runs":[` and `]}` with the newline.
func emptyLog(opts WriteOptions) (head, tail []byte, err error) {
	data, err := Encode(nil, opts)
	if err != nil {
		return nil, nil, err
	}
	i := bytes.LastIndex(data, []byte(`"runs":[]`))
	if i < 0 {
		return nil, nil, errors.New("SARIF: an empty log has no runs array")
	}
	i += len(`"runs":[`)
	return data[:i], data[i:], nil
}

// oneRun is the encoding of r's run, the i-th of the log.
func oneRun(r *agc.Response, i int, opts WriteOptions, src *Source, head, tail []byte) ([]byte, error) {
	data, err := encodeWith([]*agc.Response{r}, opts, src)
	var le *LimitError
	if errors.As(err, &le) {
		le.Pointer = strings.Replace(le.Pointer, "/runs/0", fmt.Sprintf("/runs/%d", i), 1)
	}
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, head) || !bytes.HasSuffix(data, tail) {
		return nil, fmt.Errorf("SARIF: the run of gate %s does not encode inside a log's runs", r.Gate.ID)
	}
	return data[len(head) : len(data)-len(tail)], nil
}

func uniqueGates(rs []*agc.Response) bool {
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.Gate.ID] {
			return false
		}
		seen[r.Gate.ID] = true
	}
	return true
}
