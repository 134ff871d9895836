package agc

import (
	"bytes"
	"fmt"

	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json/jsontext"
)

// Doc is one response read from a file that may hold several.
type Doc struct {
	File     string    // the file it came from
	Prefix   string    // JSON pointer of the response inside the file ("" for a lone object, "/2" in an array)
	Line     int       // 1-based line in a JSON Lines file, else 0
	Raw      []byte    // the response's own bytes
	Response *Response // nil when Err is set
	Err      error     // *diag.Error when the response could not be decoded
}

// Where names the document for messages: FILE, FILE#/2 or FILE:3.
func (d Doc) Where() string {
	switch {
	case d.Line > 0:
		return fmt.Sprintf("%s:%d", d.File, d.Line)
	case d.Prefix != "":
		return d.File + "#" + d.Prefix
	}
	return d.File
}

// DecodeAll reads a file that holds one response, a JSON array of responses,
// or JSON Lines (one response per line). The returned error is set only when
// the file as a whole is unreadable or holds no response at all
// (CheckNotEmpty); a response that fails to decode is reported in its Doc.
func DecodeAll(file string, data []byte, lim Limits) ([]Doc, error) {
	if int64(len(data)) > lim.maxBytes() {
		return nil, CheckSyntax(file, data, lim)
	}
	if err := CheckNotEmpty(file, data); err != nil {
		return nil, err
	}
	switch firstKind(data) {
	case '[':
		return decodeArray(file, data, lim)
	case '{':
		if isJSONLines(data) {
			return decodeLines(file, data, lim)
		}
	}
	r, err := Decode(file, data, lim)
	return []Doc{{File: file, Raw: data, Response: r, Err: err}}, nil
}

func decodeArray(file string, data []byte, lim Limits) ([]Doc, error) {
	if err := CheckSyntax(file, data, lim); err != nil {
		return nil, err
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := dec.ReadToken(); err != nil { // '['
		return nil, syntaxError(file, data, dec, err)
	}
	var docs []Doc
	cur := lim.Scans.NewCursor(data)
	for i := 0; dec.PeekKind() != ']'; i++ {
		v, err := dec.ReadValue()
		if err != nil {
			return nil, syntaxError(file, data, dec, err)
		}
		start := dec.InputOffset() - int64(len(v))
		raw := bytes.Clone(v)
		prefix := fmt.Sprintf("/%d", i)
		r, derr := decodeChecked(file, raw)
		if e, ok := moved(derr, cur, start).(*diag.Error); ok {
			e.Pointer = prefix + e.Pointer
		}
		docs = append(docs, Doc{File: file, Prefix: prefix, Raw: raw, Response: r, Err: derr})
	}
	return docs, nil
}

// isJSONLines reports whether data holds more than one top-level value.
func isJSONLines(data []byte) bool {
	// A scan for the end of the first value answers for a lone object, the
	// usual case, without decoding it; anything after that end is left to
	// the decoder, which says whether it is one more value.
	if end, ok := firstValueEnd(data); ok && firstIndex(data[end:]) == len(data)-end {
		return false
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if err := dec.SkipValue(); err != nil {
		return false
	}
	return dec.PeekKind() != 0
}

func decodeLines(file string, data []byte, lim Limits) ([]Doc, error) {
	var docs []Doc
	cur := lim.Scans.NewCursor(data)
	off := 0
	for n, line := range bytes.SplitAfter(data, []byte("\n")) {
		start := off
		off += len(line)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		d := Doc{File: file, Line: n + 1, Raw: line}
		if err := CheckSyntax(file, line, lim); err != nil {
			d.Err = moved(err, cur, int64(start))
		} else {
			r, err := decodeChecked(file, line)
			d.Response, d.Err = r, moved(err, cur, int64(start))
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// firstValueEnd is the offset just past the object or array data starts
// with (after white space), found by matching brackets outside strings;
// ok is false when data does not start with one or it does not close. For
// valid JSON the offset is the decoder's; for other input the decoder has
// the last word, as isJSONLines says false either way.
func firstValueEnd(data []byte) (int, bool) {
	i := firstIndex(data)
	if i == len(data) || data[i] != '{' && data[i] != '[' {
		return 0, false
	}
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}
