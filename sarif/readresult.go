package sarif

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

func (rd *reader) result(m jobj, base at, ctx *runCtx) *Result {
	res := &Result{Pointer: base.String()}
	base = at{base: res.Pointer}
	res.Props = rd.props(m, base)
	rd.resolveRule(res, m, base, ctx.run)
	res.Kind = rd.kind(m, base)
	res.Level = rd.resultLevel(res, m, base)
	res.Message = rd.message(res, m, base, ctx)
	res.Loc = rd.primaryLocation(m, base, ctx)
	res.Fingerprints = rd.fingerprints(m, base, "fingerprints")
	res.Partial = rd.fingerprints(m, base, "partialFingerprints")
	res.Suppressed = rd.suppressed(m, base)
	res.BaselineState = rd.baselineState(m, base)
	res.Fixes = rd.fixes(m, base, ctx)
	return res
}

// resolveRule follows §3.27.5–3.27.7: rule (with its toolComponent),
// ruleIndex and ruleId, in that order of precedence.
func (rd *reader) resolveRule(res *Result, m jobj, base at, run *Run) {
	res.RuleID = rd.istr(m, base, "ruleId")
	if ref := rd.obj(m, base, "rule"); ref != nil {
		rb := base.in("rule")
		comp := run.Driver
		if tc := rd.obj(ref, rb, "toolComponent"); tc != nil {
			comp = rd.toolComponent(tc, rb.in("toolComponent"), run)
		}
		if res.RuleID == "" {
			res.RuleID = rd.istr(ref, rb, "id")
		}
		if comp != nil {
			if i, ok := rd.integer(ref, rb, "index"); ok {
				if i < len(comp.Rules) {
					res.Rule = comp.Rules[i]
				} else {
					rd.lint(rb.in("index"), "rule index %d is out of range (%d rules); resolved by id instead", i, len(comp.Rules))
				}
			}
			if res.Rule == nil && res.RuleID != "" {
				res.Rule = findRule(comp, res.RuleID)
			}
		}
	}
	if res.Rule == nil {
		if i, ok := rd.integer(m, base, "ruleIndex"); ok {
			if i < len(run.Driver.Rules) {
				res.Rule = run.Driver.Rules[i]
			} else {
				rd.lint(base.in("ruleIndex"), "ruleIndex %d is out of range (tool.driver has %d rules) and was ignored", i, len(run.Driver.Rules))
			}
		}
	}
	if res.Rule == nil && res.RuleID != "" {
		res.Rule = findRule(run.Driver, res.RuleID)
		for _, ext := range run.Extensions {
			if res.Rule == nil {
				res.Rule = findRule(ext, res.RuleID)
			}
		}
	}
	if res.RuleID == "" && res.Rule != nil {
		res.RuleID = res.Rule.ID
	}
	if res.RuleID == "" {
		res.RuleID = "unidentified-rule"
		rd.lint(base, "no ruleId, ruleIndex or rule; the class is %q", res.RuleID)
	}
}

// toolComponent is the component a toolComponentReference (§3.54) names,
// by index into the extensions or by name; nil when none.
func (rd *reader) toolComponent(tc jobj, base at, run *Run) *Component {
	if i, ok := rd.integer(tc, base, "index"); ok {
		if i < len(run.Extensions) {
			return run.Extensions[i]
		}
		rd.lint(base.in("index"), "tool component index %d is out of range (%d extensions)", i, len(run.Extensions))
		return nil
	}
	name := rd.str(tc, base, "name")
	for _, e := range run.Extensions {
		if e.Name == name {
			return e
		}
	}
	if name == run.Driver.Name {
		return run.Driver
	}
	return nil
}

// findRule finds a rule by id, then by the prefix of a hierarchical id
// (§3.27.5: "a/b" names sub-rule b of rule a).
func findRule(c *Component, id string) *Rule {
	for {
		for _, r := range c.Rules {
			if r.ID == id {
				return r
			}
		}
		i := strings.LastIndexByte(id, '/')
		if i <= 0 {
			return nil
		}
		id = id[:i]
	}
}

func (rd *reader) kind(m jobj, base at) string {
	k := rd.istr(m, base, "kind")
	switch k {
	case "":
		return "fail"
	case "fail", "pass", "open", "informational", "notApplicable", "review":
		return k
	}
	rd.lint(base.in("kind"), "kind %q is not a SARIF result kind; read as \"fail\"", k)
	return "fail"
}

// resultLevel applies §3.27.10.
func (rd *reader) resultLevel(res *Result, m jobj, base at) string {
	if l := rd.level(m, base); l != "" {
		return l
	}
	if res.Kind != "fail" {
		return "none"
	}
	if res.Rule != nil && res.Rule.Level != "" {
		return res.Rule.Level
	}
	return "warning"
}

// message resolves §3.11: text, else the rule's or the driver's message
// string named by id; arguments fill {n} placeholders in either.
func (rd *reader) message(res *Result, m jobj, base at, ctx *runCtx) string {
	mb := base.in("message")
	msg := rd.obj(m, base, "message")
	if msg == nil {
		rd.lint(mb, "no message; the rule's description is used")
		return ruleText(res)
	}
	text := rd.str(msg, mb, "text")
	args := rd.strings(msg, mb, "arguments")
	if text == "" {
		if id := rd.str(msg, mb, "id"); id != "" {
			if res.Rule != nil {
				text = res.Rule.Messages[id]
			}
			if text == "" {
				text = ctx.global[id]
			}
			if text == "" {
				rd.lint(mb.in("id"), "message id %q names no message string", id)
			}
		}
	}
	if text == "" {
		text = rd.str(msg, mb, "markdown")
	}
	if text == "" {
		rd.lint(mb, "empty message; the rule's description is used")
		return ruleText(res)
	}
	if strings.ContainsRune(text, '{') {
		if filled, ok := format(text, args); ok {
			if len(args) == 0 && filled != text {
				rd.lint(mb, "message text is a template without arguments")
			}
			text = filled
		}
	}
	return text
}

func ruleText(res *Result) string {
	if res.Rule != nil {
		for _, s := range []string{res.Rule.Short, res.Rule.Full, res.Rule.Name} {
			if s != "" {
				return s
			}
		}
	}
	return "Rule " + res.RuleID + " reported a result."
}

// format fills {n} placeholders (§3.11.5) with args; "{{" and "}}" are
// literal braces. A placeholder with no argument is left as it is.
func format(tmpl string, args []string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		switch {
		case c == '{' && i+1 < len(tmpl) && tmpl[i+1] == '{', c == '}' && i+1 < len(tmpl) && tmpl[i+1] == '}':
			b.WriteByte(c)
			i++
		case c == '{':
			j := strings.IndexByte(tmpl[i:], '}')
			var n int
			if j > 1 {
				if _, err := fmt.Sscanf(tmpl[i+1:i+j], "%d", &n); err == nil && fmt.Sprint(n) == tmpl[i+1:i+j] && n < len(args) {
					b.WriteString(args[n])
					i += j
					continue
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func (rd *reader) strings(m jobj, base at, key string) []string {
	a := rd.arr(m, base, key)
	if a == nil {
		return nil
	}
	out := make([]string, len(a))
	for i, v := range a {
		if v.kind() == '"' {
			out[i] = rd.text(v, false)
		} else {
			out[i] = fmt.Sprint(rd.tree(v))
		}
	}
	return out
}

// fingerprints reads fingerprints or partialFingerprints (§3.27.16–17),
// whose values must be strings. Other values, objects included, are kept
// as their canonical JSON text.
func (rd *reader) fingerprints(m jobj, base at, key string) map[string]string {
	o := rd.obj(m, base, key)
	if len(o) == 0 {
		return nil
	}
	out := make(map[string]string, len(o))
	keys := rd.keys[:0]
	for _, m := range o {
		keys = append(keys, rd.intern(m.name))
	}
	sort.Strings(keys)
	keys = slices.Compact(keys) // duplicate names: the last is read
	rd.keys = keys
	for _, k := range keys {
		switch v := o.get(k); v.kind() {
		case '"':
			out[k] = rd.text(v, false)
		default:
			out[k] = string(canonicalText(v))
			rd.lint(base.in(key).in(k), "a fingerprint is a string, not %s; its canonical JSON text is used", v.kindName())
		}
	}
	return out
}

// suppressed reports whether some suppression is accepted (§3.35.3: a
// suppression without status is accepted).
func (rd *reader) suppressed(m jobj, base at) bool {
	for i, v := range rd.arr(m, base, "suppressions") {
		if v.kind() != '{' {
			continue
		}
		s := rd.index(v)
		sb := base.in("suppressions")
		switch st := rd.str(s, sb.idx(i), "status"); st {
		case "", "accepted":
			return true
		case "underReview", "rejected":
		default:
			rd.lint(sb.idx(i).in("status"), "suppression status %q is unknown; not treated as accepted", st)
		}
	}
	return false
}

func (rd *reader) baselineState(m jobj, base at) string {
	s, known := rd.enum(m, base, "baselineState", "new", "unchanged", "updated", "absent")
	if known {
		return s
	}
	rd.lint(base.in("baselineState"), "baselineState %q is unknown; ignored", s)
	return ""
}
