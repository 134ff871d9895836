package schema

import (
	"bytes"
	"encoding/json"
)

// Accepts reports whether agc.schema.json accepts data, one JSON document
// that is syntactically valid with no duplicate member names (what
// agc.CheckSyntax lets through). It answers as Validate does, but walks the
// bytes once without building the instance or the validator's error tree:
// each keyword of the schema is written out below, definition by
// definition. It is the fast path of validation; Validate explains a
// document it refuses. FuzzAcceptsAgrees holds the two equal.
func Accepts(data []byte) bool {
	s := shape{d: data}
	if !s.response() {
		return false
	}
	s.ws()
	return s.i == len(s.d)
}

// shape walks a document's bytes against the schema. Every method returns
// false as soon as the schema refuses what it reads (or the bytes are not
// what Accepts is promised); it then stops.
type shape struct {
	d     []byte
	i     int
	allow bool   // the verdict is allow
	kind  string // the last kind kindOf read: a remedy's, a check's
}

func (s *shape) ws() {
	for s.i < len(s.d) {
		switch s.d[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next is the first byte of the next value, 0 at the end.
func (s *shape) next() byte {
	s.ws()
	if s.i >= len(s.d) {
		return 0
	}
	return s.d[s.i]
}

// str reads a string and returns its text, unescaped only when it has an
// escape (as only escaped text allocates).
func (s *shape) str() ([]byte, bool) {
	if s.next() != '"' {
		return nil, false
	}
	start := s.i + 1
	esc := false
	i := start
	for ; i < len(s.d) && s.d[i] != '"'; i++ {
		if s.d[i] == '\\' {
			esc = true
			i++
		}
	}
	if i >= len(s.d) {
		return nil, false
	}
	s.i = i + 1
	if !esc {
		return s.d[start:i], true
	}
	var t string
	if json.Unmarshal(s.d[start-1:i+1], &t) != nil {
		return nil, false
	}
	return []byte(t), true
}

// skip moves past any value.
func (s *shape) skip() bool {
	switch s.next() {
	case '"':
		_, ok := s.str()
		return ok
	case '{':
		return s.object(func([]byte) bool { return s.skip() })
	case '[':
		return s.array(func() bool { return s.skip() })
	}
	for s.i < len(s.d) {
		switch s.d[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return true
		}
		s.i++
	}
	return true
}

// object reads an object, calling member with each name; member reads the
// value.
func (s *shape) object(member func(name []byte) bool) bool {
	return s.seq('{', '}', func() bool {
		name, ok := s.str()
		if !ok || s.next() != ':' {
			return false
		}
		s.i++
		return member(name)
	})
}

// array reads an array, calling item for each element; item reads it.
func (s *shape) array(item func() bool) bool { return s.seq('[', ']', item) }

// seq reads what open and close enclose, items separated by commas, each
// read by item.
func (s *shape) seq(open, close byte, item func() bool) bool {
	if s.next() != open {
		return false
	}
	s.i++
	if s.next() == close {
		s.i++
		return true
	}
	for {
		if !item() {
			return false
		}
		switch s.next() {
		case ',':
			s.i++
		case close:
			s.i++
			return true
		default:
			return false
		}
	}
}

// counted is array that also counts the elements.
func (s *shape) counted(item func() bool) (int, bool) {
	n := 0
	ok := s.array(func() bool { n++; return item() })
	return n, ok
}

// text is $defs/text and $defs/id: a string of at least one character.
func (s *shape) text() bool {
	t, ok := s.str()
	return ok && len(t) > 0
}

func (s *shape) anyString() bool {
	_, ok := s.str()
	return ok
}

func (s *shape) boolean() bool {
	for _, lit := range []string{"true", "false"} {
		if s.next() == lit[0] && bytes.HasPrefix(s.d[s.i:], []byte(lit)) {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// enum reads a string that must be one of values; it returns which.
func (s *shape) enum(values ...string) (string, bool) {
	t, ok := s.str()
	if !ok {
		return "", false
	}
	for _, v := range values {
		if string(t) == v {
			return v, true
		}
	}
	return "", false
}

// maxCount is $defs/count's maximum, 2^53-1.
const maxCount = 1<<53 - 1

// count is $defs/count: an integer from 1 to 2^53-1, whichever way it is
// written (1.0 and 10e-1 are one). The number is read as digits times a
// power of ten, so no exponent, however large, costs more than its text.
func (s *shape) count() bool {
	c := s.next()
	if c != '-' && (c < '0' || c > '9') {
		return false
	}
	neg := c == '-'
	if neg {
		s.i++
	}
	var digits []byte // significant digits, integer and fraction parts
	exp, frac := 0, false
	for ; s.i < len(s.d); s.i++ {
		c := s.d[s.i]
		switch {
		case c >= '0' && c <= '9':
			if len(digits) > 0 || c != '0' {
				digits = append(digits, c)
			}
			if frac {
				exp-- // one more digit after the point
			}
			continue
		case c == '.':
			frac = true
			continue
		case c == 'e' || c == 'E':
			s.i++
			e, ok := s.exponent()
			if !ok {
				return false
			}
			exp += e
		}
		break
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	// Zero, a negative number, a fraction (the digits end in no zero) or
	// more than 16 digits (at least 10^16 > 2^53) fail.
	if len(digits) == 0 || neg || exp < 0 || len(digits)+exp > 16 {
		return false
	}
	var n uint64
	for _, d := range digits {
		n = n*10 + uint64(d-'0')
	}
	for ; exp > 0; exp-- {
		n *= 10
	}
	return n <= maxCount
}

// exponent reads the signed exponent of a number, clamped far beyond any
// that could matter so that it cannot overflow.
func (s *shape) exponent() (int, bool) {
	sign := 1
	if s.i < len(s.d) && (s.d[s.i] == '+' || s.d[s.i] == '-') {
		if s.d[s.i] == '-' {
			sign = -1
		}
		s.i++
	}
	e, any := 0, false
	for ; s.i < len(s.d) && s.d[s.i] >= '0' && s.d[s.i] <= '9'; s.i++ {
		if e < 1<<20 {
			e = e*10 + int(s.d[s.i]-'0')
		}
		any = true
	}
	return sign * e, any
}

// response is the schema's root.
func (s *shape) response() bool {
	have, ok := s.members(responseMembers)
	// §3: findings must be present unless verdict is allow.
	return ok && (s.allow || have&hasFindings != 0)
}

// version is the root's agc member, the version of this schema.
func (s *shape) version() bool {
	t, ok := s.str()
	return ok && string(t) == "0.1"
}

// verdict is the root's verdict; it notes in s.allow whether it is allow.
func (s *shape) verdict() bool {
	v, ok := s.enum("allow", "repaired", "block", "escalate")
	s.allow = v == "allow"
	return ok
}

// The members of a remedy that its kinds need, as bits of members' have:
// remedyMembers lists them first, in this order.
const (
	needInput = 1 << iota
	needTool
	needEdits
	needRun
	needRole
	needAsk
	needOptions
)

// remedyNeeds is what each kind of remedy needs present and valid.
var remedyNeeds = map[string]uint32{"rewrite": needInput, "generate": needTool, "patch": needEdits, "command": needRun, "delegate": needRole, "decide": needAsk | needOptions}

// remedy is $defs/remedy with its six payload conditions.
func (s *shape) remedy() bool {
	have, ok := s.members(remedyMembers)
	need := remedyNeeds[s.kind]
	return ok && need != 0 && have&need == need
}

// check is $defs/check with its two payload conditions: bit 1 of have is
// run, bit 2 condition (checkMembers).
func (s *shape) check() bool {
	have, ok := s.members(checkMembers)
	switch {
	case !ok:
		return false
	case s.kind == "command":
		return have&(1<<1) != 0
	case s.kind == "condition":
		return have&(1<<2) != 0
	}
	return true
}

// member is one member of an object the schema describes: its name, how
// its value is read, and whether the object requires it.
type member struct {
	name     string
	read     func(*shape) bool
	required bool
}

// members reads an object whose members are ms (at most 32; any other
// member is skipped) and checks that the required ones are there; bit i of
// have is set when ms[i] is.
func (s *shape) members(ms []member) (have uint32, ok bool) {
	var need uint32
	for i, m := range ms {
		if m.required {
			need |= 1 << i
		}
	}
	ok = s.object(func(name []byte) bool {
		for i := range ms {
			if string(name) == ms[i].name {
				have |= 1 << i
				return ms[i].read(s)
			}
		}
		return s.skip()
	})
	return have, ok && have&need == need
}

// objectOf reads an object whose members are ms.
func objectOf(ms []member) func(*shape) bool {
	return func(s *shape) bool {
		_, ok := s.members(ms)
		return ok
	}
}

// oneOf reads a string that must be one of values.
func oneOf(values ...string) func(*shape) bool {
	return func(s *shape) bool {
		_, ok := s.enum(values...)
		return ok
	}
}

// kindOf reads a kind that must be one of values, into s.kind.
func kindOf(values ...string) func(*shape) bool {
	return func(s *shape) bool {
		var ok bool
		s.kind, ok = s.enum(values...)
		return ok
	}
}

// atLeast reads an array of at least n items.
func atLeast(n int, item func(*shape) bool) func(*shape) bool {
	return func(s *shape) bool {
		got, ok := s.counted(func() bool { return item(s) })
		return ok && got >= n
	}
}

// arrayOf reads an array of items.
func arrayOf(item func(*shape) bool) func(*shape) bool {
	return func(s *shape) bool { return s.array(func() bool { return item(s) }) }
}

// hasFindings is the bit of responseMembers' findings in members' have.
const hasFindings = 1 << 0

var (
	responseMembers = []member{
		{"findings", arrayOf((*shape).finding), false}, // required unless verdict is allow
		{"agc", (*shape).version, true},
		{"gate", objectOf(gateMembers), true},
		{"subject", objectOf(subjectMembers), true},
		{"verdict", (*shape).verdict, true},
		{"coverage", objectOf(coverageMembers), true},
		{"attempt", objectOf(attemptMembers), true},
		{"carried", arrayOf((*shape).text), false},
	}
	remedyMembers = []member{
		{"input", (*shape).skip, false},
		{"tool", (*shape).text, false},
		{"edits", atLeast(1, (*shape).edit), false},
		{"run", (*shape).text, false},
		{"role", (*shape).text, false},
		{"ask", (*shape).text, false},
		{"options", atLeast(2, (*shape).text), false},
		{"kind", kindOf("rewrite", "generate", "patch", "command", "delegate", "decide"), true},
		{"authority", (*shape).text, false},
		{"applied", (*shape).boolean, false},
	}
	checkMembers = []member{
		{"kind", kindOf("command", "preview", "condition"), true},
		{"run", (*shape).text, false},
		{"condition", (*shape).text, false},
	}
	gateMembers = []member{
		{"id", (*shape).text, true},
		{"kind", oneOf("deterministic", "judgment"), true},
		{"version", (*shape).text, false},
	}
	subjectMembers = []member{
		{"kind", oneOf("tool-call", "diff", "commit", "artifact", "pull-request", "session"), true},
		{"fingerprint", (*shape).text, true},
		{"scope", arrayOf((*shape).anyString), false},
	}
	findingMembers = []member{
		{"id", (*shape).text, true},
		{"class", (*shape).text, true},
		{"location", (*shape).text, true},
		{"what", (*shape).text, true},
		{"why", (*shape).text, true},
		{"severity", oneOf("blocking", "advisory"), true},
		{"status", oneOf("new", "still-open", "regressed"), true},
		{"remedy", (*shape).remedy, true},
		{"check", (*shape).check, true},
	}
	editMembers = []member{
		{"path", (*shape).text, true},
		{"find", (*shape).anyString, true},
		{"replace", (*shape).anyString, true},
	}
	coverageMembers = []member{
		{"complete", (*shape).boolean, true},
		{"classes", arrayOf((*shape).text), true},
		{"not_checked", arrayOf((*shape).anyString), false},
	}
	attemptMembers = []member{
		{"n", (*shape).count, true},
		{"budget", (*shape).count, true},
	}
)

func (s *shape) finding() bool {
	_, ok := s.members(findingMembers)
	return ok
}

func (s *shape) edit() bool {
	_, ok := s.members(editMembers)
	return ok
}
