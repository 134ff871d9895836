package sarif

import (
	"bytes"
	stdjson "encoding/json"
	"slices"
)

// streamRun reads one run from its bytes v without a tree. Its members but
// results are checked and written in canonical form first (they are small:
// the tool, its rules, the base URIs, the artifacts), and read; then the
// results are read one at a time, each checked, hashed into the run's
// fingerprint and read into a Result. The member order of v does not
// matter: v is in memory, so results is found first and read last.
//
// The fingerprint is "sha256:" and the hex SHA-256 of the run's RFC 8785
// canonical form (canonicalHash): its members in RFC 8785 order, results'
// canonical form written element by element as it is read. ok is false
// for what the reader does not read as is (invalid UTF-8, duplicate names:
// see canonBytes) and for a run whose results is not an array; readRun
// then reads it whole through encoding/json, after dropping the lints this
// added.
func (rd *reader) streamRun(v []byte, base string, names map[string]string, opts ReadOptions) (*Run, bool) {
	return rd.streamRunEach(v, base, names, opts, nil, nil)
}

// streamRunEach is streamRun that, when each is set, gives each result to
// each in turn instead of keeping it in the run. start, when set, is given
// the run before its first result (without its fingerprint); when it says
// false, the run is not read further (ok false).
func (rd *reader) streamRunEach(v []byte, base string, names map[string]string, opts ReadOptions, start func(*Run) bool, each func(*Result)) (*Run, bool) {
	rd.names = names
	c := newCanon(v, names)
	d := &c.d
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, false
	}
	// The run's members, each but results written canonical into c.out now,
	// which is hashed only once they are in order.
	var members []canonMember
	var head jobj
	results := -1 // the offset of the results array
	c.nest = 1
	ok := d.members(func(b []byte, _ bool) bool {
		name := d.name(b)
		at := d.pos
		m := canonMember{name: []byte(name), start: len(c.out)}
		if name == "results" {
			if results >= 0 || d.pos >= len(d.data) || d.data[d.pos] != '[' {
				return false
			}
			results = d.pos
			if d.pos = valueEnd(d.data, d.pos); d.pos < 0 {
				return false
			}
		} else if !c.value(d.pos, 1) {
			return false
		}
		m.end = len(c.out)
		members = append(members, m)
		head = append(head, jmember{name: []byte(name), v: d.data[at:d.pos]})
		return true
	})
	if !ok {
		return nil, false
	}
	if !d.end() || results < 0 {
		return nil, false
	}
	slices.SortFunc(members, func(a, b canonMember) int { return compareUTF16(a.name, b.name) })
	for k := 1; k < len(members); k++ {
		if bytes.Equal(members[k].name, members[k-1].name) {
			return nil, false
		}
	}
	ctx := rd.runHead(head, at{base: base}, opts)
	ctx.each = each
	if start != nil && !start(ctx.run) {
		return nil, false
	}
	text := c.out
	c.out, c.nest = make([]byte, 0, canonChunk+512), 0
	c.out = append(c.out, '{')
	for k, m := range members {
		if k > 0 {
			c.out = append(c.out, ',')
		}
		c.out = append(appendCanonString(c.out, m.name), ':')
		if string(m.name) != "results" {
			c.out = append(c.out, text[m.start:m.end]...)
			c.flush()
			continue
		}
		if !rd.streamResults(c, results, ctx, at{base: ptr(base, "results")}) {
			return nil, false
		}
	}
	c.out = append(c.out, '}')
	ctx.run.Fingerprint = c.sum()
	return ctx.run, true
}

// streamResults checks the results array at offset at, writing its
// canonical form into c and reading each element into the run.
func (rd *reader) streamResults(c *canonBytes, at int, ctx *runCtx, base at) bool {
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
		switch done, ok := d.next(']'); {
		case !ok:
			return false
		case done:
			c.out = append(c.out, ']')
			return true
		}
	}
}

// readRun reads the run v at pointer base: streamed (streamRun) when it
// can be, else decoded by encoding/json (which keeps the last of duplicate
// names and replaces invalid UTF-8), encoded again and read from that.
// Its fingerprint is canonicalHash of v either way.
func (rd *reader) readRun(v []byte, base string, names map[string]string, opts ReadOptions) (*Run, error) {
	mark := rd.lints.Mark()
	if run, ok := rd.streamRun(v, base, names, opts); ok {
		return run, nil
	}
	rd.lints.Reset(mark)
	var tree any
	if err := stdjson.Unmarshal(v, &tree); err != nil {
		return nil, err
	}
	again, err := stdjson.Marshal(tree)
	if err != nil {
		return nil, err
	}
	return rd.run(rd.index(again), at{base: base}, canonicalHash(v), opts), nil
}
