package agc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Limits applied by Decode unless the caller changes them.
const (
	DefaultMaxBytes = 64 << 20 // 64 MiB
	DefaultMaxDepth = 128
)

// Classes (diag.Error.Class) of a document that cannot be decoded. They
// double as the validator's rule classes for such documents (docs/rules.md).
const (
	ClassSyntax       = "json.syntax"
	ClassDuplicateKey = "json.duplicate-key"
	ClassTooDeep      = "json.too-deep"
	ClassTooLarge     = "json.too-large"
	ClassSchema       = "schema"
	ClassNoResponse   = "no-response"
)

// Limits bounds what a decoder accepts. Zero fields take the defaults.
type Limits struct {
	MaxBytes int64
	MaxDepth int
	// Scans, if not nil, counts the bytes of the input read to place the
	// errors of its documents (diag.ScanCounter), for the tests that this
	// stays linear.
	Scans *diag.ScanCounter
}

func (l Limits) maxBytes() int64 {
	if l.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return l.MaxBytes
}

func (l Limits) maxDepth() int {
	if l.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return l.MaxDepth
}

// newError is a document that could not be decoded, at byte off of src
// (off < 0: no position): a *diag.Error whose place names the file, the
// line, column and byte offset (when known) and the JSON pointer, and whose
// Class is one of the classes above (never empty).
func newError(file string, src []byte, off int64, pointer, class, msg string) *diag.Error {
	p := diag.At(src, off)
	p.File, p.Pointer = file, pointer
	return &diag.Error{Place: p, Class: class, Msg: msg}
}

// moved places err, a *diag.Error about a part of src that starts at byte base,
// in the whole of src (cur is a cursor over it); other errors are returned
// as they are. The parts of one input are met in order, so one cursor
// places all their errors reading src once.
func moved(err error, cur *diag.Cursor, base int64) error {
	if e, ok := err.(*diag.Error); ok && e.HasOffset() {
		p := cur.At(base + e.Offset)
		p.File, p.Pointer = e.File, e.Pointer
		e.Place = p
	}
	return err
}

// CheckSyntax walks one JSON document and reports the first syntax error,
// duplicate object member, invalid UTF-8, nesting deeper than the limit, or
// size over the limit. It accepts exactly one top-level value.
func CheckSyntax(file string, data []byte, lim Limits) error {
	if int64(len(data)) > lim.maxBytes() {
		return newError(file, data, lim.maxBytes(), "", ClassTooLarge,
			fmt.Sprintf("input is larger than the limit of %d bytes", lim.maxBytes()))
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return newError(file, data, 0, "", ClassSyntax, "empty input: expected a JSON value")
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	maxDepth := lim.maxDepth()
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return syntaxError(file, data, dec, err)
		}
		if d := dec.StackDepth(); d > maxDepth {
			return newError(file, data, dec.InputOffset()-1, string(dec.StackPointer()),
				ClassTooDeep, fmt.Sprintf("nesting deeper than %d levels", maxDepth))
		}
		_ = tok
		if dec.StackDepth() == 0 {
			break
		}
	}
	end := dec.InputOffset()
	if _, err := dec.ReadToken(); err != io.EOF {
		off := end + int64(firstIndex(data[end:]))
		if err != nil {
			return syntaxError(file, data, dec, err)
		}
		return newError(file, data, off, "", ClassSyntax, "unexpected data after the top-level value")
	}
	return nil
}

// lastToken returns the unescaped last reference token of a JSON pointer.
func lastToken(p string) string {
	i := strings.LastIndexByte(p, '/')
	return strings.ReplaceAll(strings.ReplaceAll(p[i+1:], "~1", "/"), "~0", "~")
}

func syntaxError(file string, data []byte, dec *jsontext.Decoder, err error) error {
	off, ptr, class := dec.InputOffset(), string(dec.StackPointer()), ClassSyntax
	var msg string
	var se *jsontext.SyntacticError
	switch {
	case errors.As(err, &se):
		off, ptr = se.ByteOffset, string(se.JSONPointer)
		msg = se.Err.Error()
		if errors.Is(se.Err, jsontext.ErrDuplicateName) {
			class = ClassDuplicateKey
			msg = fmt.Sprintf("member %q appears twice in one object; JSON parsers disagree about which value counts", lastToken(ptr))
		}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		off = int64(len(data))
		msg = "unexpected end of input"
	default:
		msg = err.Error()
	}
	return newError(file, data, off, ptr, class, msg)
}

// Decode parses one AGC response strictly: the syntax checks of CheckSyntax,
// a top-level object, and field types as the contract defines them. It does
// not apply the contract's rules; see package validate.
func Decode(file string, data []byte, lim Limits) (*Response, error) {
	if int64(len(data)) <= lim.maxBytes() {
		if err := CheckNotEmpty(file, data); err != nil {
			return nil, err
		}
	}
	if err := CheckSyntax(file, data, lim); err != nil {
		return nil, err
	}
	return decodeChecked(file, data)
}

// CheckNotEmpty returns a *diag.Error of class ClassNoResponse when data holds
// no response at all: nothing but white space (an empty file, an empty
// JSON Lines file), or an empty JSON array. A gate that answered nothing
// has not passed, so no reader takes such an input for an answer.
func CheckNotEmpty(file string, data []byte) error {
	i := firstIndex(data)
	switch {
	case i == len(data):
		return newError(file, data, 0, "", ClassNoResponse,
			"the input is empty: it holds no AGC response, and a gate that answered nothing has not passed")
	case data[i] != '[':
		return nil
	}
	j := i + 1 + firstIndex(data[i+1:])
	if j < len(data) && data[j] == ']' && firstIndex(data[j+1:]) == len(data)-j-1 {
		return newError(file, data, int64(i), "", ClassNoResponse,
			"an empty array holds no AGC response, and a gate that answered nothing has not passed")
	}
	return nil
}

// decodeChecked unmarshals a document that already passed CheckSyntax.
// Errors are placed in data; see moved for documents inside a larger one.
func decodeChecked(file string, data []byte) (*Response, error) {
	if k := firstKind(data); k != '{' {
		return nil, newError(file, data, int64(firstIndex(data)), "", ClassSchema,
			fmt.Sprintf("a response is a JSON object, not %s", KindName(k)))
	}
	var r Response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, semanticError(file, data, err)
	}
	return &r, nil
}

func semanticError(file string, data []byte, err error) error {
	var se *json.SemanticError
	if errors.As(err, &se) {
		msg := "cannot decode"
		if se.JSONKind != 0 && se.GoType != nil {
			msg = fmt.Sprintf("expected %s, got %s", goKindName(se.GoType.Kind().String()), KindName(byte(se.JSONKind)))
		} else if se.Err != nil {
			msg = se.Err.Error()
		}
		return newError(file, data, se.ByteOffset, string(se.JSONPointer), ClassSchema, msg)
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) {
		return newError(file, data, sy.ByteOffset, string(sy.JSONPointer), ClassSyntax, sy.Err.Error())
	}
	return newError(file, data, -1, "", ClassSchema, err.Error())
}

func firstIndex(data []byte) int {
	for i, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return i
	}
	return len(data)
}

func firstKind(data []byte) byte {
	i := firstIndex(data)
	if i >= len(data) {
		return 0
	}
	switch c := data[i]; c {
	case 'n', 't', 'f', '"', '{', '[':
		return c
	default:
		return '0'
	}
}

// KindName names the kind of a JSON value for messages ("a string",
// "an object"), given its first byte or a jsontext.Kind.
func KindName(k byte) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}

func goKindName(k string) string {
	switch k {
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64":
		return "an integer written without a fraction or exponent"
	case "float64":
		return "a number"
	}
	return k
}

// Encode writes r as indented JSON with a trailing newline. Member order is
// the contract's table order; unknown members follow the known ones.
func Encode(r *Response) ([]byte, error) {
	b, err := json.Marshal(r, jsontext.WithIndent("  "), json.Deterministic(true))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
