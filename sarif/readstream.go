package sarif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// readRun reads one run from its bytes v, in one pass and without a
// tree. Its members but results are written in canonical form first (they
// are small: the tool, its rules, the base URIs, the artifacts), and read;
// then the results are read one at a time, each written canonical, hashed
// into the run's fingerprint and read into a Result. The member order of
// v does not matter: v is in memory, so results is found first and read
// last.
//
// The fingerprint is "sha256:" and the hex SHA-256 of the run's RFC 8785
// canonical form: its members in RFC 8785 order, results' canonical form
// written element by element as it is read. A run without one (invalid
// UTF-8, a lone surrogate escape, a duplicate name: read as encoding/json
// reads them, see treeDecoder) is fingerprinted by the hash of its bytes.
// A number out of range is an error.
//
// start is given the run before its first result (without its
// fingerprint) and the size of its results array in bytes, each every
// result in turn; the run does not keep them.
func (rd *reader) readRun(v []byte, base string, names map[string]string, opts Options, start func(*Run, int), each func(*Result)) (*Run, error) {
	rd.names = names
	c := newCanon(v, names)
	d := &c.d
	d.ws()
	// The run's members, each but results written canonical into c.out now,
	// which is hashed only once they are in order.
	var members []canonMember
	var head jobj
	c.nest = 1
	ok := d.members(func(b []byte, _ bool) bool {
		name := d.name(b)
		at := d.pos
		m := canonMember{name: []byte(name), start: len(c.out)}
		if name == "results" && d.data[d.pos] == '[' {
			d.pos = valueEnd(d.data, d.pos) // read last
			m.v = d.data[at:d.pos]
		} else if !c.value(d.pos, 1) {
			return false
		}
		m.end = len(c.out)
		members = append(members, m)
		head = append(head, jmember{name: []byte(name), v: d.data[at:d.pos]})
		return true
	})
	if !ok {
		return nil, c.fail()
	}
	// Stable: of duplicate names, the last stays last.
	slices.SortStableFunc(members, func(a, b canonMember) int { return compareUTF16(a.name, b.name) })
	for k := 1; k < len(members); k++ {
		if bytes.Equal(members[k].name, members[k-1].name) {
			d.lossy = true
		}
	}
	ctx := rd.runHead(head, at{base: base}, opts)
	ctx.each = each
	start(ctx.run, len(head.get("results")))
	text := c.out
	c.out, c.nest = make([]byte, 0, canonChunk+512), 0
	c.out = append(c.out, '{')
	for k, m := range members {
		if k > 0 {
			c.out = append(c.out, ',')
		}
		c.out = append(appendCanonString(c.out, m.name), ':')
		if m.v == nil {
			c.out = append(c.out, text[m.start:m.end]...)
			c.flush()
			continue
		}
		if results := head.get("results"); &results[0] == &m.v[0] { // the last results, an array
			if !rd.readResults(c, cap(v)-cap(results), ctx, at{base: ptr(base, "results")}) {
				return nil, c.fail()
			}
		}
	}
	if results := head.get("results"); results.kind() != '[' {
		rd.arr(head, at{base: base}, "results") // lints what it is
	}
	c.out = append(c.out, '}')
	ctx.run.Fingerprint = c.sum()
	if d.lossy {
		sum := sha256.Sum256(v)
		ctx.run.Fingerprint = "sha256:" + hex.EncodeToString(sum[:])
	}
	return ctx.run, nil
}

// readResults reads the results array at offset at, writing its canonical
// form into c and reading each element into the run.
func (rd *reader) readResults(c *canonBytes, at int, ctx *runCtx, base at) bool {
	d := &c.d
	d.pos = at + 1 // [
	c.out = append(c.out, '[')
	d.ws()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		c.out = append(c.out, ']')
		return true
	}
	for i := 0; ; i++ {
		if i > 0 {
			c.out = append(c.out, ',')
		}
		d.ws()
		start := d.pos
		c.record, c.tab, c.objs, c.etab, c.arrs = true, c.tab[:0], c.objs[:0], c.etab[:0], c.arrs[:0]
		if c.tab == nil {
			c.tab, c.etab = make([]jmember, 0, 64), make([]jv, 0, 64)
		}
		ok := c.value(start, 2)
		c.record = false
		if !ok {
			return false
		}
		rd.canon = c
		rd.addResult(ctx, d.data[start:d.pos], base.idx(i))
		rd.canon = nil
		c.flush()
		if done, _ := d.next(']'); done {
			c.out = append(c.out, ']')
			return true
		}
	}
}
