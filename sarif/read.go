package sarif

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// DefaultMaxBytes is the largest log ReadLog accepts unless told otherwise.
const DefaultMaxBytes = 256 << 20 // 256 MiB

// ReadOptions tune ReadLog.
type ReadOptions struct {
	// MaxBytes bounds the input; <= 0 means DefaultMaxBytes.
	MaxBytes int64
	// Root is the absolute, slash-separated path of the source root.
	// Absolute file paths under it are made relative; others are kept
	// absolute and reported as lint. Empty: no absolute path is relative.
	Root string
}

func (o ReadOptions) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// ReadLog reads a SARIF 2.1.0 log leniently. It refuses input larger than
// the limit without holding more than the limit in memory, and returns an
// *diag.Error for what it cannot read at all (not JSON, not an object, a version
// other than 2.1.0, no runs), placed at its line and column. Everything it
// repaired comes back as lint in file, naming a JSON pointer.
func ReadLog(r io.Reader, file string, opts ReadOptions) (*Log, []diag.Lint, error) {
	data, skipped, err := readLimited(r, opts.maxBytes())
	if err != nil {
		return nil, nil, &diag.Error{Place: diag.Place{File: file}, Msg: err.Error()}
	}
	log, lints, err := parseLog(data, skipped, file, opts)
	for i := range lints {
		lints[i].File = file
	}
	return log, lints, err
}

// lead is the white space readLimited skipped before the log: how many
// bytes, how many line breaks, and how many bytes after the last one.
type lead struct {
	bytes, lines, column int64
}

// place is where byte off of data, the log after the lead, lies in the file.
func (l lead) place(data []byte, off int64) diag.Place {
	p := diag.At(data, off)
	if !p.HasOffset() {
		return p
	}
	if p.Line == 1 {
		p.Column += int(l.column)
	}
	p.Line += int(l.lines)
	p.Offset += l.bytes
	return p
}

// readLimited reads all of r, skipping leading white space without keeping
// it, and fails once more than max bytes were read.
func readLimited(r io.Reader, max int64) ([]byte, lead, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var skipped lead
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			return nil, skipped, errors.New("empty input: expected a SARIF log")
		}
		if err != nil {
			return nil, skipped, fmt.Errorf("read: %w", err)
		}
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			_ = br.UnreadByte()
			break
		}
		if skipped.bytes++; skipped.bytes > max {
			return nil, skipped, fmt.Errorf("input is larger than the limit of %d bytes (only white space so far)", max)
		}
		skipped.column++
		if b == '\n' {
			skipped.lines++
			skipped.column = 0
		}
	}
	// Sized once when the reader knows its length, rather than regrown.
	var buf bytes.Buffer
	buf.Grow(int(min(sizeHint(r)+int64(br.Buffered()), max-skipped.bytes+1) + bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(br, max-skipped.bytes+1)); err != nil {
		return nil, skipped, fmt.Errorf("read: %w", err)
	}
	data := buf.Bytes()
	if int64(len(data))+skipped.bytes > max {
		return nil, skipped, fmt.Errorf("input is larger than the limit of %d bytes", max)
	}
	return data, skipped, nil
}

// sizeHint is what is left to read of r when r can tell (a bytes or
// strings reader, a regular file), else 0.
func sizeHint(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case interface{ Stat() (fs.FileInfo, error) }:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return 0
}

// parseLog walks the top level (parseTop), then reads each run.
func parseLog(data []byte, skipped lead, file string, opts ReadOptions) (*Log, []diag.Lint, error) {
	log, raws, err := parseTop(data, skipped, file)
	if err != nil {
		return nil, nil, err
	}
	rd := &reader{}
	names := map[string]string{}
	for i, raw := range raws {
		p := ptrIdx("/runs", i)
		if raw.Kind() != '{' {
			return nil, nil, failAt(data, skipped, file, p, "a run is a JSON object, not %s", tokKind(raw.Kind()))
		}
		run, err := rd.readRun(raw, p, names, opts)
		if err != nil {
			return nil, nil, failAt(data, skipped, file, p, "%s", err)
		}
		log.Runs = append(log.Runs, run)
	}
	return log, rd.lints.List(), nil
}

// failAt is a *diag.Error where pointer p lies in data.
func failAt(data []byte, skipped lead, file, p, format string, args ...any) error {
	off := int64(-1)
	if found := diag.Offsets(data, []string{p}); found[0] >= 0 {
		off = found[0]
	}
	place := skipped.place(data, off)
	place.File, place.Pointer = file, p
	return diag.Errorf(place, format, args...)
}

// parseTop walks the top level of a log with a streaming decoder, checking
// it, and returns the log without its runs and each run's bytes.
func parseTop(data []byte, skipped lead, file string) (*Log, []jsontext.Value, error) {
	// A *bytes.Buffer is parsed in place, without a copy.
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	// at fails at byte off of data, or where pointer p lies when off < 0.
	at := func(p string, off int64, format string, args ...any) (*Log, []jsontext.Value, error) {
		if off < 0 {
			return nil, nil, failAt(data, skipped, file, p, format, args...)
		}
		place := skipped.place(data, off)
		place.File, place.Pointer = file, p
		return nil, nil, diag.Errorf(place, format, args...)
	}
	fail := func(p, format string, args ...any) (*Log, []jsontext.Value, error) {
		return at(p, -1, format, args...)
	}
	notJSON := func(p string, err error) (*Log, []jsontext.Value, error) {
		return at(p, syntaxOffset(data, err), "not JSON: %s", syntaxMsg(err))
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return notJSON("", err)
	}
	if tok.Kind() != '{' {
		return fail("", "a SARIF log is a JSON object, not %s", tokKind(tok.Kind()))
	}
	log := &Log{}
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
			if err := json.Unmarshal(v, &log.Version); err != nil {
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
	case log.Version == "":
		return fail("/version", "no version: this reader understands SARIF 2.1.0 only")
	case log.Version != "2.1.0":
		return fail("/version", "SARIF version %q is not supported: this reader understands 2.1.0 only", log.Version)
	case !sawRuns:
		return fail("/runs", "no runs: a SARIF log must have a runs array")
	}
	return log, raws, nil
}

// readRuns reads the runs array, keeping each run as its bytes in data
// (not a copy) for streamRun.
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

// canonicalHash is "sha256:" and the hex SHA-256 of the RFC 8785 canonical
// form of v. A value that cannot be canonicalized (invalid UTF-8) is hashed
// as read.
func canonicalHash(v jsontext.Value) string {
	c := jsontext.Value(bytes.Clone(v))
	if err := c.Canonicalize(); err != nil {
		c = v
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:])
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
