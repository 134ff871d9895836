package action

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/sarif"
)

// writeSARIFFile writes rs as one SARIF log to path, exactly as
// sarif.Encode(rs, opt) would (limits included), but converting and
// encoding one run at a time: 20 runs of 25,000 results are over a
// gigabyte as go-sarif values, one run is a twentieth of it. encoding/json writes an array element exactly as it writes the
// element alone, so each run is spliced between the brackets of an empty
// log's runs. Gates answering twice (whose categories FromAGC numbers)
// are converted together.
func writeSARIFFile(path string, rs []*agc.Response, opt sarif.WriteOptions) error {
	if n := len(rs); n > sarif.MaxRuns {
		return &sarif.LimitError{Place: diag.Place{Pointer: "/runs"}, Limit: "runs", Count: n, Max: sarif.MaxRuns}
	}
	if !uniqueGates(rs) {
		return writeSARIFWhole(path, rs, opt)
	}
	head, tail, err := emptyLog(opt)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(head)
	for i, r := range rs {
		run, err := oneRun(r, i, opt, head, tail)
		if err != nil {
			f.Close()
			return err
		}
		if i > 0 {
			w.WriteString(",")
		}
		w.Write(run)
	}
	w.Write(tail)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// emptyLog is the encoding of a log with no runs, cut around its runs'
// brackets: `{..."runs":[` and `]}` with the newline.
func emptyLog(opt sarif.WriteOptions) (head, tail []byte, err error) {
	data, err := sarif.Encode(nil, opt)
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
func oneRun(r *agc.Response, i int, opt sarif.WriteOptions, head, tail []byte) ([]byte, error) {
	data, err := sarif.Encode([]*agc.Response{r}, opt)
	var le *sarif.LimitError
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

// writeSARIFWhole converts and encodes rs in one go.
func writeSARIFWhole(path string, rs []*agc.Response, opt sarif.WriteOptions) error {
	data, err := sarif.Encode(rs, opt)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
