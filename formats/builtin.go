package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/render"
	"github.com/agcgate/agc-action/sarif"
	"github.com/go-json-experiment/json/jsontext"
)

// Default is the registry "agc-sarif convert" uses.
func Default() *Registry {
	r, err := New(append(append(Builtin(), Bridges()...), Fixers()...)...)
	if err != nil {
		panic(err) // the built-in table is fixed; TestDefault proves it valid
	}
	return r
}

// Builtin lists the built-in formats in detection order.
func Builtin() []Format {
	return []Format{
		{Name: "agc", Help: "AGC responses: one object, a JSON array, or JSON Lines", Detect: LooksLikeAGC, Read: readAGC, Write: writeAGC},
		{Name: "sarif", Help: "a SARIF 2.1.0 log", Detect: LooksLikeSARIF, Read: readSARIF, Write: writeSARIF},
		{Name: "text", Help: "AGC responses rendered as text (spec §12)", Write: writeText},
		{Name: "markdown", Help: "AGC responses rendered as Markdown (spec §12)", Write: writeMarkdown},
	}
}

func readAGC(file string, data []byte, _ ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	docs, err := agc.DecodeAll(file, data, agc.Limits{})
	if err != nil {
		return nil, nil, err
	}
	out := make([]*agc.Response, 0, len(docs))
	for _, d := range docs {
		if d.Err != nil {
			return nil, nil, d.Err
		}
		out = append(out, d.Response)
	}
	return out, nil, nil
}

// writeAGC writes one response as an object, several as an array.
func writeAGC(w io.Writer, rs []*agc.Response, _ WriteOptions) error {
	if len(rs) == 1 {
		b, err := agc.Encode(rs[0])
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	var buf bytes.Buffer
	buf.WriteString("[")
	for i, r := range rs {
		b, err := agc.Encode(r)
		if err != nil {
			return err
		}
		if i > 0 {
			buf.WriteString(",")
		}
		buf.Write(bytes.TrimRight(b, "\n"))
	}
	buf.WriteString("]")
	v := jsontext.Value(buf.Bytes())
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return err
	}
	_, err := w.Write(append(v, '\n'))
	return err
}

// readSARIF reads a log, placing its lint at their lines and columns in one
// walk over data.
func readSARIF(file string, data []byte, opts ReadOptions) ([]*agc.Response, []diag.Lint, error) {
	rs, _, lints, err := ReadSARIFRuns(file, data, opts)
	return rs, lints, err
}

// ReadSARIFRuns reads a log as the sarif format does, one response per
// run, and names each run's tool (tool.driver.name), which the gate id is
// made from (agc.ToolGateID), so that callers can tell two tools whose ids
// clash (agc.Clashes).
func ReadSARIFRuns(file string, data []byte, opts ReadOptions) ([]*agc.Response, []string, []diag.Lint, error) {
	got, err := sarif.Read(data, file, sarif.Options{Root: opts.Root, FS: opts.FS, FailLevel: opts.FailLevel})
	if err != nil {
		return nil, nil, nil, err
	}
	diag.LocateLints(file, data, got.Lints)
	return got.Responses, got.Tools, got.Lints, nil
}

// writeSARIF writes one log and refuses one GitHub would reject.
func writeSARIF(w io.Writer, rs []*agc.Response, opts WriteOptions) error {
	var buf bytes.Buffer
	err := sarif.Write(&buf, rs, sarif.WriteOptions{FS: opts.FS})
	var le *sarif.LimitError
	if errors.As(err, &le) {
		return fmt.Errorf("the SARIF log would exceed GitHub's limits: %w", err)
	}
	if err != nil {
		return err
	}
	if err := sarif.CheckSize(buf.Bytes()); err != nil {
		return fmt.Errorf("the SARIF log would exceed GitHub's limits: %w", err)
	}
	_, err = buf.WriteTo(w)
	return err
}

func writeText(w io.Writer, rs []*agc.Response, _ WriteOptions) error {
	return writeRendered(w, rs, render.Text)
}

func writeMarkdown(w io.Writer, rs []*agc.Response, _ WriteOptions) error {
	return writeRendered(w, rs, render.Markdown)
}

func writeRendered(w io.Writer, rs []*agc.Response, fn func(io.Writer, *agc.Response) error) error {
	for i, r := range rs {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := fn(w, r); err != nil {
			return err
		}
	}
	return nil
}
