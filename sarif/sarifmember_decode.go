package sarif

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Write reads the agc-action/sarif member of every finding. json v2
// spends most of that time in reflection, so xOf first reads the member as
// xRecordMember writes it (the form Read gives it, which agc.Encode and
// agc.Decode keep) and accepts what it read only when xRecordMember writes
// those exact bytes back; anything else is read by json v2.
// FuzzXRecordMember checks that both reads agree.

// xParser reads the JSON text xRecordMember writes. It checks little:
// what it reads is compared with the input, written again.
type xParser struct {
	b   []byte
	i   int
	bad bool
}

// parseXMember reads {"agc-action/sarif":RECORD} as xRecordMember writes
// it, or with one more member whose value is a string, as withHelpMember
// adds it; ok is false when u is not exactly that text.
func parseXMember(u []byte) (xRecord, bool) {
	p := xParser{b: u}
	var x xRecord
	p.want('{')
	if p.str() != xSARIF {
		return xRecord{}, false
	}
	p.want(':')
	p.record(&x)
	end := p.i
	if p.peek() == ',' {
		p.i++
		if !p.canonStr() || string(u[end+2:p.i-1]) == xSARIF {
			return xRecord{}, false
		}
		p.want(':')
		if !p.canonStr() {
			return xRecord{}, false
		}
	}
	p.want('}')
	if p.bad || p.i != len(u) {
		return xRecord{}, false
	}
	text := xRecordMember(&x)
	if len(text) == 0 || !bytes.Equal(text[:len(text)-1], u[:end]) {
		return xRecord{}, false
	}
	return x, true
}

// canonStr reads a string that json v2 writes that way: so it is valid,
// and a name is the same however it is escaped.
func (p *xParser) canonStr() bool {
	start := p.i
	s := p.str()
	q, err := jsontext.AppendQuote(nil, s)
	return !p.bad && err == nil && bytes.Equal(q, p.b[start:p.i])
}

func (p *xParser) peek() byte {
	if p.bad || p.i >= len(p.b) {
		p.bad = true
		return 0
	}
	return p.b[p.i]
}

func (p *xParser) want(c byte) {
	if p.peek() != c {
		p.bad = true
		return
	}
	p.i++
}

// more is called after '{' or '[' and after each member or element: it
// reports whether another follows, and consumes the ',' or the closing
// byte.
func (p *xParser) more(first bool, end byte) bool {
	switch c := p.peek(); {
	case c == end:
		p.i++
		return false
	case first:
		return !p.bad
	case c == ',':
		p.i++
		return true
	}
	p.bad = true
	return false
}

// object reads an object's members; member reads the value of each.
func (p *xParser) object(member func(name string)) {
	p.want('{')
	for first := true; p.more(first, '}'); first = false {
		name := p.str()
		p.want(':')
		member(name)
		if p.bad {
			return
		}
	}
}

// array reads an array's elements; elem reads each.
func (p *xParser) array(elem func()) {
	p.want('[')
	for first := true; p.more(first, ']'); first = false {
		elem()
		if p.bad {
			return
		}
	}
}

func (p *xParser) str() string {
	p.want('"')
	start, esc := p.i, false
	for ; p.i < len(p.b) && p.b[p.i] != '"'; p.i++ {
		if p.b[p.i] == '\\' {
			esc = true
			p.i++
		}
	}
	if p.bad || p.i >= len(p.b) {
		p.bad = true
		return ""
	}
	raw := p.b[start:p.i]
	p.i++
	if !esc {
		return string(raw)
	}
	s, err := jsontext.AppendUnquote(nil, p.b[start-1:p.i])
	if err != nil {
		p.bad = true
	}
	return string(s)
}

func (p *xParser) int() int {
	start := p.i
	for p.i < len(p.b) && (p.b[p.i] == '-' || p.b[p.i] >= '0' && p.b[p.i] <= '9') {
		p.i++
	}
	n, err := strconv.Atoi(string(p.b[start:p.i]))
	if err != nil {
		p.bad = true
	}
	return n
}

func (p *xParser) strMap() map[string]string {
	m := map[string]string{}
	p.object(func(k string) { m[k] = p.str() })
	return m
}

func (p *xParser) record(x *xRecord) {
	p.object(func(name string) {
		switch name {
		case "ruleId":
			x.RuleID = p.str()
		case "message":
			x.Message = p.str()
		case "kind":
			x.Kind = p.str()
		case "level":
			x.Level = p.str()
		case "uri":
			x.URI = p.str()
		case "region":
			x.Region = &xRegion{}
			p.region(x.Region)
		case "logical":
			x.Logical = p.str()
		case "fixes":
			x.Fixes = []xFix{}
			p.array(func() {
				x.Fixes = append(x.Fixes, xFix{})
				p.fix(&x.Fixes[len(x.Fixes)-1])
			})
		case "suppressed":
			if !bytes.HasPrefix(p.b[p.i:], []byte("true")) {
				p.bad = true
			}
			x.Suppressed, p.i = true, p.i+4
		case "baselineState":
			x.BaselineState = p.str()
		case "partialFingerprints":
			x.Partial = p.strMap()
		case "fingerprints":
			x.Fingerprints = p.strMap()
		default:
			p.bad = true
		}
	})
}

func (p *xParser) region(r *xRegion) {
	p.object(func(name string) {
		switch name {
		case "startLine":
			r.StartLine = p.int()
		case "startColumn":
			r.StartColumn = p.int()
		case "endLine":
			r.EndLine = p.int()
		case "endColumn":
			r.EndColumn = p.int()
		case "charOffset":
			n := p.int()
			r.CharOffset = &n
		case "charLength":
			r.CharLength = p.int()
		case "snippet":
			r.Snippet = p.str()
		default:
			p.bad = true
		}
	})
}

func (p *xParser) fix(f *xFix) {
	p.object(func(name string) {
		switch name {
		case "description":
			f.Description = p.str()
		case "changes":
			f.Changes = []xChange{}
			p.array(func() {
				var c xChange
				p.object(func(name string) {
					switch name {
					case "uri":
						c.URI = p.str()
					case "replacements":
						c.Replacements = []xReplacement{}
						p.array(func() {
							var r xReplacement
							p.object(func(name string) {
								switch name {
								case "deleted":
									p.region(&r.Deleted)
								case "inserted":
									r.Inserted = p.str()
								default:
									p.bad = true
								}
							})
							c.Replacements = append(c.Replacements, r)
						})
					default:
						p.bad = true
					}
				})
				f.Changes = append(f.Changes, c)
			})
		default:
			p.bad = true
		}
	})
}
