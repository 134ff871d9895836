package bridge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// maxInput bounds every document this package reads.
const maxInput = 16 << 20

// doc is one JSON document being read, for error messages.
type doc struct {
	file string
	line int    // line of the opening fence when the document is a fenced block's content, else 0
	src  []byte // the document, once parse has it
}

// member is one member of a JSON object, in the order it was written.
type member struct {
	name  string
	value jsontext.Value
}

// object is a JSON object read member by member, so that members can be
// taken by name and the rest kept in their original order.
type object struct {
	d       *doc
	ptr     string
	members []member
}

// parse checks data strictly (agc.CheckSyntax: syntax, duplicate members,
// UTF-8, depth, size) and reads it as one JSON object.
func (d *doc) parse(data []byte, what string) (*object, error) {
	d.src = data
	if err := agc.CheckSyntax(d.file, data, agc.Limits{MaxBytes: maxInput}); err != nil {
		return nil, d.syntaxError(what, err)
	}
	return d.object(jsontext.Value(data), "", what)
}

// object reads v, found at pointer p, as an object.
func (d *doc) object(v jsontext.Value, p, what string) (*object, error) {
	if v.Kind() != '{' {
		return nil, d.errAt(p, "%s must be a JSON object, not %s", what, agc.KindName(byte(v.Kind())))
	}
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	if _, err := dec.ReadToken(); err != nil {
		return nil, d.errAt(p, "%s: %v", what, err)
	}
	o := &object{d: d, ptr: p}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, d.errAt(p, "%s: %v", what, err)
		}
		name := tok.String()
		val, err := dec.ReadValue()
		if err != nil {
			return nil, d.errAt(p, "%s: %v", what, err)
		}
		o.members = append(o.members, member{name, bytes.Clone(val)})
	}
	return o, nil
}

// at is the pointer of member name.
func (o *object) at(name string) string {
	return o.ptr + "/" + agc.PointerToken(name)
}

// get returns member name; null counts as absent.
func (o *object) get(name string) (jsontext.Value, bool) {
	for _, m := range o.members {
		if m.name == name {
			return m.value, m.value.Kind() != 'n'
		}
	}
	return nil, false
}

// str reads a string member. A required member that is absent or null is an
// error; an optional one returns "".
func (o *object) str(name string, required bool) (string, error) {
	v, ok := o.get(name)
	if !ok {
		if required {
			return "", o.d.errAt(o.at(name), "member %q is required (a string)", name)
		}
		return "", nil
	}
	if v.Kind() != '"' {
		return "", o.d.errAt(o.at(name), "member %q must be a string, not %s", name, agc.KindName(byte(v.Kind())))
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", o.d.errAt(o.at(name), "member %q: %v", name, err)
	}
	return s, nil
}

// strs reads an optional array of strings; absent or null gives nil.
func (o *object) strs(name string) ([]string, error) {
	v, ok := o.get(name)
	if !ok {
		return nil, nil
	}
	if v.Kind() != '[' {
		return nil, o.d.errAt(o.at(name), "member %q must be an array of strings, not %s", name, agc.KindName(byte(v.Kind())))
	}
	var raw []jsontext.Value
	if err := json.Unmarshal(v, &raw); err != nil {
		return nil, o.d.errAt(o.at(name), "member %q: %v", name, err)
	}
	out := make([]string, 0, len(raw))
	for i, item := range raw {
		var s string
		if item.Kind() != '"' || json.Unmarshal(item, &s) != nil {
			return nil, o.d.errAt(o.at(name)+"/"+strconv.Itoa(i), "item %d of %q must be a string, not %s", i, name, agc.KindName(byte(item.Kind())))
		}
		out = append(out, s)
	}
	return out, nil
}

// obj reads an optional object member; absent or null gives nil.
func (o *object) obj(name string) (*object, error) {
	v, ok := o.get(name)
	if !ok {
		return nil, nil
	}
	return o.d.object(v, o.at(name), "member \""+name+"\"")
}

// rest returns the members not named in taken, as a JSON object in their
// original order, or nil when there are none.
func (o *object) rest(taken ...string) jsontext.Value {
	var ms []member
	for _, m := range o.members {
		if !contains(taken, m.name) {
			ms = append(ms, m)
		}
	}
	return encodeObject(ms)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// encodeObject writes members as one compact JSON object; no members give nil.
func encodeObject(ms []member) jsontext.Value {
	if len(ms) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := jsontext.AppendQuote(nil, m.name)
		b.Write(name)
		b.WriteByte(':')
		v := m.value.Clone()
		_ = v.Compact()
		b.Write(v)
	}
	b.WriteByte('}')
	return jsontext.Value(b.Bytes())
}

// extensions collects namespaced members for an agc Unknown field.
type extensions []member

// add keeps v under name unless v is empty or null.
func (x *extensions) add(name string, v jsontext.Value) {
	if len(v) == 0 || v.Kind() == 'n' {
		return
	}
	*x = append(*x, member{name, v})
}

// addString keeps s under name unless it is empty.
func (x *extensions) addString(name, s string) {
	if s == "" {
		return
	}
	x.add(name, quote(s))
}

func (x extensions) value() agc.Unknown { return agc.Unknown(encodeObject(x)) }

func quote(s string) jsontext.Value {
	b, _ := jsontext.AppendQuote(nil, s)
	return b
}

// sha256Of is the fingerprint of exactly these bytes.
func sha256Of(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// nonEmpty is ss, or nil when it has no items (so that it is omitted).
func nonEmpty(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}
