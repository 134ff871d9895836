package diag

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Locate gives each place that has no line yet the line, column and offset
// of the value its pointer names in the JSON document src, or of the
// nearest enclosing value that exists (the object a missing member belongs
// in). src is read once for all of them, leniently: duplicate member names
// (the first counts) and invalid UTF-8 are accepted, and a syntax error
// ends the walk with the places found so far.
func Locate(src []byte, places ...*Place) { (*ScanCounter)(nil).Locate(src, places...) }

// Locate is Locate(src, places...), counting the bytes it reads in c.
func (c *ScanCounter) Locate(src []byte, places ...*Place) {
	var todo []*Place
	var ptrs []string
	for _, p := range places {
		if p.Line == 0 {
			todo = append(todo, p)
			ptrs = append(ptrs, p.Pointer)
		}
	}
	if len(todo) == 0 {
		return
	}
	offs := c.Offsets(src, ptrs)
	for i, at := range c.AtAll(src, offs) {
		if offs[i] >= 0 {
			todo[i].Line, todo[i].Column, todo[i].Offset = at.Line, at.Column, at.Offset
		}
	}
}

// Offsets returns, for each pointer, the byte offset in src of the value
// it names, or of its nearest enclosing value that exists, or -1.
func Offsets(src []byte, pointers []string) []int64 {
	return (*ScanCounter)(nil).Offsets(src, pointers)
}

// Offsets is Offsets(src, pointers), counting the bytes it reads in c.
func (c *ScanCounter) Offsets(src []byte, pointers []string) []int64 {
	c.Add(len(src)) // the walk below reads src once
	root := &node{off: -1}
	paths := make([][]*node, len(pointers))
	for i, p := range pointers {
		paths[i] = root.path(p)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(src), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	_ = root.walk(dec, src) // a syntax error keeps what was found before it
	out := make([]int64, len(pointers))
	for i, path := range paths {
		out[i] = -1
		for _, n := range path {
			if n.off < 0 {
				break
			}
			out[i] = n.off
		}
	}
	return out
}

// node is one reference token of the wanted pointers: a trie, so that one
// walk serves them all and skips every value none of them is inside.
type node struct {
	kids map[string]*node
	off  int64 // where the value starts; -1 until seen
}

// path adds pointer p to the trie and returns its nodes from the root.
func (n *node) path(p string) []*node {
	out := []*node{n}
	if !strings.HasPrefix(p, "/") {
		return out
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if n.kids == nil {
			n.kids = map[string]*node{}
		}
		k := n.kids[tok]
		if k == nil {
			k = &node{off: -1}
			n.kids[tok] = k
		}
		n = k
		out = append(out, n)
	}
	return out
}

// walk reads the value the decoder is at, noting where it starts and
// descending into the members and items some pointer goes through.
func (n *node) walk(dec *jsontext.Decoder, src []byte) error {
	kind := dec.PeekKind()
	if kind == 0 { // no value here: the end of input or a syntax error
		return dec.SkipValue()
	}
	if n.off < 0 {
		n.off = valueStart(src, dec.InputOffset())
	}
	if len(n.kids) == 0 || (kind != '{' && kind != '[') {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	end := jsontext.Kind(']')
	if kind == '{' {
		end = '}'
	}
	for i := 0; dec.PeekKind() != end; i++ {
		key := strconv.Itoa(i)
		if kind == '{' {
			name, err := dec.ReadToken()
			if err != nil {
				return err
			}
			key = name.String()
		}
		var err error
		if k := n.kids[key]; k != nil {
			err = k.walk(dec, src)
		} else {
			err = dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

// valueStart skips the white space and separators before a value.
func valueStart(src []byte, off int64) int64 {
	for ; off < int64(len(src)); off++ {
		switch src[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
		default:
			return off
		}
	}
	return off
}

// LocateLints places lints in src, as Locate places places, in one walk;
// a non-empty file becomes each lint's File. A summary lint (Lints) is
// left without a line.
func LocateLints(file string, src []byte, lints []Lint) {
	(*ScanCounter)(nil).LocateLints(file, src, lints)
}

// LocateLints is LocateLints(file, src, lints), counting the bytes it
// reads in c.
func (c *ScanCounter) LocateLints(file string, src []byte, lints []Lint) {
	places := make([]*Place, 0, len(lints))
	for i := range lints {
		if file != "" {
			lints[i].File = file
		}
		if lints[i].More == 0 { // a summary is about the whole input
			places = append(places, &lints[i].Place)
		}
	}
	c.Locate(src, places...)
}
