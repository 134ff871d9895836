package sarif

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// DefaultMaxBytes is the largest log Read accepts unless told otherwise.
const DefaultMaxBytes = 256 << 20 // 256 MiB

// Options tune Read: how a log is read, and how each run is converted to
// AGC (docs/sarif-mapping.md, "SARIF → AGC").
type Options struct {
	// MaxBytes bounds the input; <= 0 means DefaultMaxBytes.
	MaxBytes int64
	// Root is the absolute, slash-separated path of the source root.
	// Absolute file paths under it are made relative; others are kept
	// absolute and reported as lint. Empty: no absolute path is relative.
	Root string
	// FS is the source root, used to read the text of regions (patch find
	// text, finding ids). Nil: no sources; snippets are used when present.
	FS fs.FS
	// FailLevel is the lowest level that blocks: "error" (default),
	// "warning", "note", or "none" (nothing blocks).
	FailLevel string
	// SubjectKind is the subject's kind; default "commit" (a SARIF log
	// judges a checkout).
	SubjectKind string
	// Budget is attempt.budget; default agc.ConvertedBudget. attempt.n is 1.
	Budget int
	// Out, when set, is where the response of a log of one run is written,
	// as agc.Encode writes it, each finding as its result is read: neither
	// the results nor the findings are held. Read then returns the
	// response without its findings, and Written. A log of other than one
	// run is not written to Out.
	Out File
}

// File is what Options.Out writes to: an *os.File. What comes before the
// findings depends on all of them (the fingerprint, the verdict); it is
// written with stand-ins of the same length and written again in place.
type File interface {
	io.Writer
	io.WriterAt
	io.Seeker
	Truncate(size int64) error
}

func (o Options) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// Converted is what Read gives: one response a run, in order.
type Converted struct {
	Responses []*agc.Response
	Tools     []string    // each run's tool.driver.name, which its gate id is made from
	Lints     []diag.Lint // reading's, then converting's, naming the file
	Written   bool        // the one response was written to Options.Out
}

// Read reads a SARIF 2.1.0 log leniently and converts each run to an AGC
// response, one result at a time as it is read (a run Write wrote is
// restored whole). It returns a *diag.Error for what it cannot read at all
// (larger than the limit, not JSON, not an object, a version other than
// 2.1.0, no runs, a number out of range), placed at its line and column.
// Everything it repaired comes back as lint, naming a JSON pointer.
func Read(data []byte, file string, opts Options) (*Converted, error) {
	if int64(len(data)) > opts.maxBytes() {
		if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
			return nil, &diag.Error{Place: diag.Place{File: file}, Msg: fmt.Sprintf("input is larger than the limit of %d bytes (only white space so far)", opts.maxBytes())}
		}
		return nil, &diag.Error{Place: diag.Place{File: file}, Msg: fmt.Sprintf("input is larger than the limit of %d bytes", opts.maxBytes())}
	}
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return nil, &diag.Error{Place: diag.Place{File: file}, Msg: "empty input: expected a SARIF log"}
	}
	raws, err := parseTop(data, file)
	if err != nil {
		return nil, err
	}
	out := &Converted{Tools: make([]string, len(raws))}
	rd := &reader{}
	var converted diag.Lints // converting's lints, after reading's
	names := map[string]string{}
	for i, raw := range raws {
		p := ptrIdx("/runs", i)
		if raw.Kind() != '{' {
			return nil, failAt(data, file, p, "a run is a JSON object, not %s", tokKind(raw.Kind()))
		}
		c := &agcRun{opts: opts, src: NewSource(opts.FS), lints: &converted}
		if len(raws) == 1 && opts.Out != nil {
			if c.out, err = newAGCWriter(opts.Out); err != nil {
				return nil, err
			}
		}
		run, err := rd.readRun(raw, p, names, opts, c.start, c.add)
		if err == nil {
			err = c.end(run)
		}
		if err != nil {
			return nil, failAt(data, file, p, "%s", err)
		}
		out.Responses = append(out.Responses, c.r)
		out.Tools[i] = run.Driver.Name
		out.Written = c.out != nil
	}
	out.Lints = append(rd.lints.List(), converted.List()...)
	for i := range out.Lints {
		out.Lints[i].File = file
	}
	return out, nil
}

// failAt is a *diag.Error where pointer p lies in data.
func failAt(data []byte, file, p, format string, args ...any) error {
	off := int64(-1)
	if found := diag.Offsets(data, []string{p}); found[0] >= 0 {
		off = found[0]
	}
	place := diag.At(data, off)
	place.File, place.Pointer = file, p
	return diag.Errorf(place, format, args...)
}

// parseTop walks the top level of a log with a streaming decoder, checking
// its syntax, version and runs, and returns each run's bytes.
func parseTop(data []byte, file string) ([]jsontext.Value, error) {
	// A *bytes.Buffer is parsed in place, without a copy.
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	// at fails at byte off of data, or where pointer p lies when off < 0.
	at := func(p string, off int64, format string, args ...any) ([]jsontext.Value, error) {
		if off < 0 {
			return nil, failAt(data, file, p, format, args...)
		}
		place := diag.At(data, off)
		place.File, place.Pointer = file, p
		return nil, diag.Errorf(place, format, args...)
	}
	fail := func(p, format string, args ...any) ([]jsontext.Value, error) {
		return at(p, -1, format, args...)
	}
	notJSON := func(p string, err error) ([]jsontext.Value, error) {
		return at(p, syntaxOffset(data, err), "not JSON: %s", syntaxMsg(err))
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return notJSON("", err)
	}
	if tok.Kind() != '{' {
		return fail("", "a SARIF log is a JSON object, not %s", tokKind(tok.Kind()))
	}
	var version string
	var raws []jsontext.Value
	sawRuns := false
	for dec.PeekKind() != '}' {
		nameTok, err := dec.ReadToken()
		if err != nil {
			return notJSON(string(dec.StackPointer()), err)
		}
		name := nameTok.String()
		switch name {
		case "version":
			v, err := dec.ReadValue()
			if err != nil {
				return notJSON("/version", err)
			}
			if err := json.Unmarshal(v, &version); err != nil {
				return fail("/version", "the version must be the string \"2.1.0\", got %s", v)
			}
		case "runs":
			sawRuns = true
			if raws, err = readRuns(dec, data); err != nil {
				return at(string(dec.StackPointer()), syntaxOffset(data, err), "%s", syntaxMsg(err))
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return notJSON(ptr("", name), err)
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return notJSON("", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		off := dec.InputOffset()
		off += int64(len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return at("", off, "unexpected data after the log object")
	}
	switch {
	case version == "":
		return fail("/version", "no version: this reader understands SARIF 2.1.0 only")
	case version != "2.1.0":
		return fail("/version", "SARIF version %q is not supported: this reader understands 2.1.0 only", version)
	case !sawRuns:
		return fail("/runs", "no runs: a SARIF log must have a runs array")
	}
	return raws, nil
}

// readRuns reads the runs array, keeping each run as its bytes in data
// (not a copy) for readRun.
func readRuns(dec *jsontext.Decoder, data []byte) ([]jsontext.Value, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '[' {
		return nil, fmt.Errorf("runs must be an array, not %s", tokKind(tok.Kind()))
	}
	var out []jsontext.Value
	for dec.PeekKind() != ']' {
		// The run is checked by ReadValue; its bytes are taken from data,
		// where they stay valid after the decoder moves on.
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		out = append(out, jsontext.Value(data[end-int64(len(v)):end]))
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	return out, nil
}

func syntaxMsg(err error) string {
	var se *jsontext.SyntacticError
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "unexpected end of input"
	}
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

// syntaxOffset is the byte of data a syntax error is at, or -1 when err is
// not one.
func syntaxOffset(data []byte, err error) int64 {
	var se *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return int64(len(data))
	case errors.As(err, &se):
		return se.ByteOffset
	}
	return -1
}

func tokKind(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "nothing"
}
