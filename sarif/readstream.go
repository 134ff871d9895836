package sarif

import (
	"crypto/sha256"
	"encoding/hex"
)

// streamRun reads one run from its bytes v without building the run's
// whole tree. Every member but results is decoded whole (they are small:
// the tool, its rules, the base URIs, the artifacts); then the results are
// decoded one at a time, each hashed into the run's fingerprint and read
// into a Result while its tree is the only one alive. The member order of
// v does not matter: v is in memory, so results is found first and read
// last.
//
// The fingerprint is the one decodeRun gives: the canonical form of the
// run is its members in RFC 8785 order, and results' canonical form is
// written element by element as it is read. ok is false for what
// treeDecoder does not handle exactly (invalid UTF-8, duplicate names, see
// decodeRun) and for a run whose results is not an array; the caller then
// reads the run whole, as before, after dropping the lints this added.
func (rd *reader) streamRun(v []byte, base string, names map[string]string, opts ReadOptions) (*Run, bool) {
	return rd.streamRunEach(v, base, names, opts, nil, nil)
}

// streamRunEach is streamRun that, when each is set, gives each result to
// each in turn instead of keeping it in the run. start, when set, is given
// the run before its first result (without its fingerprint); when it says
// false, the run is not read further (ok false).
func (rd *reader) streamRunEach(v []byte, base string, names map[string]string, opts ReadOptions, start func(*Run) bool, each func(*Result)) (*Run, bool) {
	d := treeDecoder{data: v, names: names}
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, false
	}
	d.pos++
	m := map[string]any{}
	results := -1 // the offset of the results array
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
	} else if !d.members(m, &results) {
		return nil, false
	}
	if !d.end() || results < 0 {
		return nil, false
	}
	ctx := rd.runHead(m, base, opts)
	ctx.each = each
	if start != nil && !start(ctx.run) {
		return nil, false
	}
	keys := sortedKeys(make([]string, 0, len(m)+1), m, "results")
	c := canonWriter{h: sha256.New(), buf: make([]byte, 0, canonChunk+512)}
	c.buf = append(c.buf, '{')
	for i, k := range keys {
		c.name(i, k)
		if k != "results" {
			c.value(m[k], 1)
			continue
		}
		d.pos = results
		if !rd.streamResults(&d, &c, ctx, ptr(base, "results")) {
			return nil, false
		}
	}
	c.buf = append(c.buf, '}')
	c.h.Write(c.buf)
	ctx.run.Fingerprint = "sha256:" + hex.EncodeToString(c.h.Sum(nil))
	return ctx.run, true
}

// members decodes the members of the object d is inside into m, all but a
// results array, whose offset it sets instead and skips.
func (d *treeDecoder) members(m map[string]any, results *int) bool {
	for {
		d.ws()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false
		}
		b, ok := d.str()
		if !ok {
			return false
		}
		name := d.name(b)
		d.ws()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return false
		}
		d.pos++
		d.ws()
		if _, dup := m[name]; dup || name == "results" && *results >= 0 {
			return false
		}
		if name == "results" && d.pos < len(d.data) && d.data[d.pos] == '[' {
			*results = d.pos
			if !d.skip() {
				return false
			}
		} else {
			v, ok := d.value(1)
			if !ok {
				return false
			}
			m[name] = v
		}
		switch done, ok := d.next('}'); {
		case !ok:
			return false
		case done:
			return true
		}
	}
}

// streamResults decodes the results array at d, writing its canonical
// form into c and reading each element into the run.
func (rd *reader) streamResults(d *treeDecoder, c *canonWriter, ctx *runCtx, base string) bool {
	d.pos++ // [
	c.buf = append(c.buf, '[')
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		c.buf = append(c.buf, ']')
		return true
	}
	for i := 0; ; i++ {
		v, ok := d.value(2)
		if !ok {
			return false
		}
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.value(v, 2)
		rd.addResult(ctx, v, ptrIdx(base, i))
		switch done, ok := d.next(']'); {
		case !ok:
			return false
		case done:
			c.buf = append(c.buf, ']')
			return true
		}
	}
}

// skip moves past the JSON value at d, which is known to be syntactically
// valid, without decoding it.
func (d *treeDecoder) skip() bool {
	depth := 0
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case '"':
			i := d.pos + 1
			for i < len(d.data) && d.data[i] != '"' {
				if d.data[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(d.data) {
				return false
			}
			d.pos = i + 1
			if depth == 0 {
				return true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				d.pos++
				return depth == 0
			}
		}
		d.pos++
	}
	return false
}
