package sarif

// The reader as it was before it read a log's bytes directly: it read the
// generic tree decodeRun gives (map[string]any, []any, float64, string,
// bool, nil). It is kept here, unchanged but for its names, as the oracle
// the byte reader is compared with (TestStreamRunIsBuffered,
// FuzzStreamRun, TestReadRunIsTreeRead).

import (
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"fmt"
	"hash"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

type treeReader struct {
	lints []diag.Lint
}

func (rd *treeReader) lint(p, format string, args ...any) {
	rd.lints = append(rd.lints, lintAt(p, fmt.Sprintf(format, args...)))
}

func (rd *treeReader) obj(m map[string]any, base, key string) map[string]any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		rd.lint(ptr(base, key), "expected an object, got %s; ignored", kindOf(v))
	}
	return o
}

func (rd *treeReader) objects(m map[string]any, base, key string, each func(o map[string]any, p string)) {
	ab := ptr(base, key)
	for i, v := range rd.arr(m, base, key) {
		if o, ok := v.(map[string]any); ok {
			each(o, ptrIdx(ab, i))
		}
	}
}

func (rd *treeReader) enum(m map[string]any, base, key string, values ...string) (s string, known bool) {
	s = rd.str(m, base, key)
	return s, s == "" || slices.Contains(values, s)
}

func (rd *treeReader) arr(m map[string]any, base, key string) []any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		rd.lint(ptr(base, key), "expected an array, got %s; ignored", kindOf(v))
	}
	return a
}

func (rd *treeReader) str(m map[string]any, base, key string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	switch s := v.(type) {
	case string:
		return s
	case float64, bool:
		rd.lint(ptr(base, key), "expected a string, got %s; used its text", kindOf(v))
		return fmt.Sprint(s)
	}
	rd.lint(ptr(base, key), "expected a string, got %s; ignored", kindOf(v))
	return ""
}

func (rd *treeReader) boolean(m map[string]any, base, key string, def bool) bool {
	v, ok := m[key]
	if !ok || v == nil {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		rd.lint(ptr(base, key), "expected a boolean, got %s; ignored", kindOf(v))
		return def
	}
	return b
}

func (rd *treeReader) integer(m map[string]any, base, key string) (int, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	switch n := v.(type) {
	case float64:
		if n >= 0 && n == math.Trunc(n) && n <= math.MaxInt32 {
			return int(n), true
		}
		rd.lint(ptr(base, key), "expected a non-negative integer, got %v; ignored", n)
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(n)); err == nil && i >= 0 {
			rd.lint(ptr(base, key), "integer written as a string; read as %d", i)
			return i, true
		}
		rd.lint(ptr(base, key), "expected an integer, got the string %q; ignored", n)
	default:
		rd.lint(ptr(base, key), "expected an integer, got %s; ignored", kindOf(v))
	}
	return 0, false
}

func (rd *treeReader) props(m map[string]any, base string) map[string]any {
	return rd.obj(m, base, "properties")
}

type treeCtx struct {
	run       *Run
	artifacts []any
	bases     map[string]any
	global    map[string]string // driver globalMessageStrings
	opts      ReadOptions
	each      func(*Result) // when set, is given each result, which the run does not keep
}

func (rd *treeReader) run(m map[string]any, base, fingerprint string, opts ReadOptions) *Run {
	ctx := rd.runHead(m, base, opts)
	ctx.run.Fingerprint = fingerprint
	for i, v := range rd.arr(m, base, "results") {
		rd.addResult(ctx, v, ptrIdx(ptr(base, "results"), i))
	}
	return ctx.run
}

func (rd *treeReader) runHead(m map[string]any, base string, opts ReadOptions) *treeCtx {
	r := &Run{Pointer: base, Props: rd.props(m, base)}
	ctx := &treeCtx{run: r, opts: opts}
	rd.tool(r, m, base, ctx)
	ctx.artifacts = rd.arr(m, base, "artifacts")
	ctx.bases = rd.obj(m, base, "originalUriBaseIds")
	if ad := rd.obj(m, base, "automationDetails"); ad != nil {
		r.AutomationID = rd.str(ad, ptr(base, "automationDetails"), "id")
	}
	rd.invocations(r, m, base)
	return ctx
}

func (rd *treeReader) addResult(ctx *treeCtx, v any, p string) {
	o, ok := v.(map[string]any)
	if !ok {
		rd.lint(p, "a result is an object, not %s; skipped", kindOf(v))
		return
	}
	res := rd.result(o, p, ctx)
	if ctx.each != nil {
		ctx.each(res)
		return
	}
	ctx.run.Results = append(ctx.run.Results, res)
}

func (rd *treeReader) tool(r *Run, m map[string]any, base string, ctx *treeCtx) {
	tb := ptr(base, "tool")
	tool := rd.obj(m, base, "tool")
	if tool == nil {
		rd.lint(tb, "no tool; the gate is named %q", "unknown-tool")
		r.Driver = &Component{Name: "unknown-tool"}
		return
	}
	db := ptr(tb, "driver")
	driver := rd.obj(tool, tb, "driver")
	if driver == nil {
		rd.lint(db, "no tool.driver; the gate is named %q", "unknown-tool")
		driver = map[string]any{"name": "unknown-tool"}
	}
	r.Driver = rd.component(driver, db)
	if r.Driver.Name == "" {
		rd.lint(ptr(db, "name"), "no tool name; the gate is named %q", "unknown-tool")
		r.Driver.Name = "unknown-tool"
	}
	ctx.global = rd.messageStrings(driver, db, "globalMessageStrings")
	eb := ptr(tb, "extensions")
	for i, v := range rd.arr(tool, tb, "extensions") {
		if o, ok := v.(map[string]any); ok {
			r.Extensions = append(r.Extensions, rd.component(o, ptrIdx(eb, i)))
		} else {
			rd.lint(ptrIdx(eb, i), "a tool extension is an object, not %s; skipped", kindOf(v))
			r.Extensions = append(r.Extensions, &Component{})
		}
	}
}

func (rd *treeReader) component(m map[string]any, base string) *Component {
	c := &Component{Name: rd.str(m, base, "name"), Version: rd.str(m, base, "version")}
	if c.Version == "" {
		c.Version = rd.str(m, base, "semanticVersion")
	}
	rb := ptr(base, "rules")
	for i, v := range rd.arr(m, base, "rules") {
		o, ok := v.(map[string]any)
		if !ok {
			rd.lint(ptrIdx(rb, i), "a rule is an object, not %s; skipped", kindOf(v))
			c.Rules = append(c.Rules, &Rule{})
			continue
		}
		c.Rules = append(c.Rules, rd.rule(o, ptrIdx(rb, i)))
	}
	return c
}

func (rd *treeReader) rule(m map[string]any, base string) *Rule {
	r := &Rule{
		ID:       rd.str(m, base, "id"),
		Name:     rd.str(m, base, "name"),
		Short:    rd.mmsText(m, base, "shortDescription"),
		Full:     rd.mmsText(m, base, "fullDescription"),
		Help:     rd.mmsText(m, base, "help"),
		HelpURI:  rd.str(m, base, "helpUri"),
		Messages: rd.messageStrings(m, base, "messageStrings"),
		Props:    rd.props(m, base),
	}
	if r.ID == "" {
		rd.lint(ptr(base, "id"), "a rule without an id")
	}
	cb := ptr(base, "defaultConfiguration")
	if cfg := rd.obj(m, base, "defaultConfiguration"); cfg != nil {
		r.Level = rd.level(cfg, cb)
		r.Disabled = !rd.boolean(cfg, cb, "enabled", true)
	}
	return r
}

func (rd *treeReader) mmsText(m map[string]any, base, key string) string {
	o := rd.obj(m, base, key)
	if o == nil {
		return ""
	}
	p := ptr(base, key)
	if t := rd.str(o, p, "text"); t != "" {
		return t
	}
	return rd.str(o, p, "markdown")
}

func (rd *treeReader) messageStrings(m map[string]any, base, key string) map[string]string {
	o := rd.obj(m, base, key)
	if len(o) == 0 {
		return nil
	}
	out := make(map[string]string, len(o))
	p := ptr(base, key)
	for _, id := range slices.Sorted(maps.Keys(o)) { // sorted, as the byte reader reads them
		out[id] = rd.mmsText(o, p, id)
	}
	return out
}

func (rd *treeReader) level(m map[string]any, base string) string {
	l, known := rd.enum(m, base, "level", "none", "note", "warning", "error")
	if known {
		return l
	}
	if low := strings.ToLower(l); low == "none" || low == "note" || low == "warning" || low == "error" {
		rd.lint(ptr(base, "level"), "level %q is not lower case; read as %q", l, low)
		return low
	}
	rd.lint(ptr(base, "level"), "level %q is not one of none, note, warning, error; ignored", l)
	return ""
}

func (rd *treeReader) invocations(r *Run, m map[string]any, base string) {
	rd.objects(m, base, "invocations", func(inv map[string]any, p string) {
		if r.CommandLine == "" {
			r.CommandLine = rd.str(inv, p, "commandLine")
		}
		if !rd.boolean(inv, p, "executionSuccessful", true) {
			r.Failed = true
		}
		rd.objects(inv, p, "toolExecutionNotifications", func(n map[string]any, np string) {
			if rd.level(n, np) != "error" {
				return
			}
			if msg := rd.obj(n, np, "message"); msg != nil {
				r.Notices = append(r.Notices, rd.str(msg, ptr(np, "message"), "text"))
			}
		})
		rd.overrides(r, inv, p)
	})
}

func (rd *treeReader) overrides(r *Run, inv map[string]any, base string) {
	rd.objects(inv, base, "ruleConfigurationOverrides", func(o map[string]any, p string) {
		cfg := rd.obj(o, p, "configuration")
		desc := rd.obj(o, p, "descriptor")
		if cfg == nil || desc == nil || rd.boolean(cfg, ptr(p, "configuration"), "enabled", true) {
			return
		}
		if idx, ok := rd.integer(desc, ptr(p, "descriptor"), "index"); ok && idx < len(r.Driver.Rules) {
			r.Driver.Rules[idx].Disabled = true
		} else if id := rd.str(desc, ptr(p, "descriptor"), "id"); id != "" {
			for _, rule := range r.Driver.Rules {
				if rule.ID == id {
					rule.Disabled = true
				}
			}
		}
	})
}

func (rd *treeReader) result(m map[string]any, base string, ctx *treeCtx) *Result {
	res := &Result{Pointer: base, Props: rd.props(m, base)}
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

func (rd *treeReader) resolveRule(res *Result, m map[string]any, base string, run *Run) {
	res.RuleID = rd.str(m, base, "ruleId")
	if ref := rd.obj(m, base, "rule"); ref != nil {
		rb := ptr(base, "rule")
		comp := run.Driver
		if tc := rd.obj(ref, rb, "toolComponent"); tc != nil {
			comp = rd.component4(tc, ptr(rb, "toolComponent"), run)
		}
		if res.RuleID == "" {
			res.RuleID = rd.str(ref, rb, "id")
		}
		if comp != nil {
			if i, ok := rd.integer(ref, rb, "index"); ok {
				if i < len(comp.Rules) {
					res.Rule = comp.Rules[i]
				} else {
					rd.lint(ptr(rb, "index"), "rule index %d is out of range (%d rules); resolved by id instead", i, len(comp.Rules))
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
				rd.lint(ptr(base, "ruleIndex"), "ruleIndex %d is out of range (tool.driver has %d rules) and was ignored", i, len(run.Driver.Rules))
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

func (rd *treeReader) component4(tc map[string]any, base string, run *Run) *Component {
	if i, ok := rd.integer(tc, base, "index"); ok {
		if i < len(run.Extensions) {
			return run.Extensions[i]
		}
		rd.lint(ptr(base, "index"), "tool component index %d is out of range (%d extensions)", i, len(run.Extensions))
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

func (rd *treeReader) kind(m map[string]any, base string) string {
	k := rd.str(m, base, "kind")
	switch k {
	case "":
		return "fail"
	case "fail", "pass", "open", "informational", "notApplicable", "review":
		return k
	}
	rd.lint(ptr(base, "kind"), "kind %q is not a SARIF result kind; read as \"fail\"", k)
	return "fail"
}

func (rd *treeReader) resultLevel(res *Result, m map[string]any, base string) string {
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

func (rd *treeReader) message(res *Result, m map[string]any, base string, ctx *treeCtx) string {
	mb := ptr(base, "message")
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
				rd.lint(ptr(mb, "id"), "message id %q names no message string", id)
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

func (rd *treeReader) strings(m map[string]any, base, key string) []string {
	a := rd.arr(m, base, key)
	if a == nil {
		return nil
	}
	out := make([]string, len(a))
	for i, v := range a {
		switch s := v.(type) {
		case string:
			out[i] = s
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

func (rd *treeReader) fingerprints(m map[string]any, base, key string) map[string]string {
	o := rd.obj(m, base, key)
	if len(o) == 0 {
		return nil
	}
	out := make(map[string]string, len(o))
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := o[k].(type) {
		case string:
			out[k] = v
		default:
			b, err := json.Marshal(v, json.Deterministic(true))
			if err == nil {
				_ = (*jsontext.Value)(&b).Canonicalize()
			}
			out[k] = string(b)
			rd.lint(ptr(ptr(base, key), k), "a fingerprint is a string, not %s; its canonical JSON text is used", kindOf(v))
		}
	}
	return out
}

func (rd *treeReader) suppressed(m map[string]any, base string) bool {
	for i, v := range rd.arr(m, base, "suppressions") {
		s, ok := v.(map[string]any)
		if !ok {
			continue
		}
		sb := ptr(base, "suppressions")
		switch st := rd.str(s, ptrIdx(sb, i), "status"); st {
		case "", "accepted":
			return true
		case "underReview", "rejected":
		default:
			rd.lint(ptr(ptrIdx(sb, i), "status"), "suppression status %q is unknown; not treated as accepted", st)
		}
	}
	return false
}

func (rd *treeReader) baselineState(m map[string]any, base string) string {
	s, known := rd.enum(m, base, "baselineState", "new", "unchanged", "updated", "absent")
	if known {
		return s
	}
	rd.lint(ptr(base, "baselineState"), "baselineState %q is unknown; ignored", s)
	return ""
}

func (rd *treeReader) primaryLocation(m map[string]any, base string, ctx *treeCtx) *Loc {
	lb := ptr(base, "locations")
	locs := rd.arr(m, base, "locations")
	if len(locs) == 0 {
		return nil
	}
	p := ptrIdx(lb, 0)
	lm, ok := locs[0].(map[string]any)
	if !ok {
		rd.lint(p, "a location is an object, not %s; ignored", kindOf(locs[0]))
		return nil
	}
	loc := &Loc{Props: rd.props(lm, p)}
	if pl := rd.obj(lm, p, "physicalLocation"); pl != nil {
		pp := ptr(p, "physicalLocation")
		if al := rd.obj(pl, pp, "artifactLocation"); al != nil {
			loc.Path, loc.Relative = rd.artifactPath(al, ptr(pp, "artifactLocation"), ctx)
		}
		if rg := rd.obj(pl, pp, "region"); rg != nil {
			loc.Region = rd.region(rg, ptr(pp, "region"))
		}
	}
	lls := rd.arr(lm, p, "logicalLocations")
	if len(lls) > 0 {
		if ll, ok := lls[0].(map[string]any); ok {
			llp := ptr(ptr(p, "logicalLocations"), "0")
			loc.Logical = rd.str(ll, llp, "fullyQualifiedName")
			if loc.Logical == "" {
				loc.Logical = rd.str(ll, llp, "name")
			}
		}
	}
	if ph, _ := loc.Props[propPlaceholder].(bool); ph {
		loc.Path, loc.Relative, loc.Region = "", false, nil
	}
	if loc.Region != nil && loc.Region.Origin != "" {
		loc.Region = nil
	}
	if loc.Path == "" && loc.Logical == "" {
		return nil
	}
	return loc
}

func (rd *treeReader) artifactPath(al map[string]any, base string, ctx *treeCtx) (string, bool) {
	uri := rd.str(al, base, "uri")
	baseID := rd.str(al, base, "uriBaseId")
	if uri == "" {
		if i, ok := rd.integer(al, base, "index"); ok {
			if i < len(ctx.artifacts) {
				if a, ok := ctx.artifacts[i].(map[string]any); ok {
					ab := ptrIdx(ptr(ctx.run.Pointer, "artifacts"), i)
					if l := rd.obj(a, ab, "location"); l != nil {
						uri = rd.str(l, ptr(ab, "location"), "uri")
						baseID = rd.str(l, ptr(ab, "location"), "uriBaseId")
					}
				}
			} else {
				rd.lint(ptr(base, "index"), "artifact index %d is out of range (%d artifacts)", i, len(ctx.artifacts))
			}
		}
	}
	if uri == "" {
		return "", false
	}
	if baseID != "" && !hasScheme(uri) && !strings.HasPrefix(uri, "/") {
		uri = rd.applyBase(uri, baseID, base, ctx, 0)
	}
	return rd.normalizePath(uri, ptr(base, "uri"), ctx.opts.Root)
}

func (rd *treeReader) applyBase(uri, id, base string, ctx *treeCtx, depth int) string {
	b, ok := ctx.bases[id].(map[string]any)
	if !ok || depth > 8 {
		return uri
	}
	bb := ptr(ptr(ctx.run.Pointer, "originalUriBaseIds"), id)
	prefix := rd.str(b, bb, "uri")
	if prefix == "" {
		return uri
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	joined := prefix + uri
	if parent := rd.str(b, bb, "uriBaseId"); parent != "" && !hasScheme(prefix) && !strings.HasPrefix(prefix, "/") {
		return rd.applyBase(joined, parent, base, ctx, depth+1)
	}
	return joined
}

// normalizePath reads no tree: it is the byte reader's.
func (rd *treeReader) normalizePath(uri, p, root string) (string, bool) {
	r := &reader{}
	path, ok := r.normalizePath(uri, at{base: p}, root)
	rd.lints = append(rd.lints, r.lints.List()...)
	return path, ok
}

func (rd *treeReader) region(m map[string]any, base string) *Region {
	r := &Region{CharOffset: -1}
	r.StartLine, _ = rd.integer(m, base, "startLine")
	r.StartColumn, _ = rd.integer(m, base, "startColumn")
	r.EndLine, _ = rd.integer(m, base, "endLine")
	r.EndColumn, _ = rd.integer(m, base, "endColumn")
	if off, ok := rd.integer(m, base, "charOffset"); ok {
		r.CharOffset = off
		r.CharLength, _ = rd.integer(m, base, "charLength")
	}
	if s := rd.obj(m, base, "snippet"); s != nil {
		r.Snippet = rd.str(s, ptr(base, "snippet"), "text")
	}
	if pr := rd.props(m, base); pr != nil {
		r.Origin, _ = pr[propRegion].(string)
	}
	if r.EndLine != 0 && r.EndLine < r.StartLine {
		rd.lint(ptr(base, "endLine"), "endLine %d is before startLine %d; ignored", r.EndLine, r.StartLine)
		r.EndLine = 0
	}
	if r.StartLine == 0 && r.CharOffset < 0 {
		if r.Snippet != "" {
			rd.lint(base, "a region with only a snippet does not place the result (§3.30.1); the snippet is kept as the text and the line dropped")
		} else {
			rd.lint(base, "a region without startLine or charOffset (§3.30.1); ignored")
		}
	}
	return r
}

func (rd *treeReader) fixes(m map[string]any, base string, ctx *treeCtx) []Fix {
	var out []Fix
	rd.objects(m, base, "fixes", func(fm map[string]any, p string) {
		f := Fix{Pointer: p}
		if d := rd.obj(fm, p, "description"); d != nil {
			f.Description = rd.str(d, ptr(p, "description"), "text")
		}
		rd.objects(fm, p, "artifactChanges", func(cm map[string]any, cp string) {
			if c, ok := rd.change(cm, cp, ctx); ok {
				f.Changes = append(f.Changes, c)
			}
		})
		if len(f.Changes) > 0 {
			out = append(out, f)
		} else {
			rd.lint(p, "a fix without usable artifact changes; ignored")
		}
	})
	return out
}

func (rd *treeReader) change(m map[string]any, base string, ctx *treeCtx) (Change, bool) {
	c := Change{}
	if al := rd.obj(m, base, "artifactLocation"); al != nil {
		c.Path, c.Relative = rd.artifactPath(al, ptr(base, "artifactLocation"), ctx)
	}
	if c.Path == "" {
		rd.lint(ptr(base, "artifactLocation"), "an artifact change without a URI; ignored")
		return c, false
	}
	rd.objects(m, base, "replacements", func(rm map[string]any, p string) {
		dr := rd.obj(rm, p, "deletedRegion")
		if dr == nil {
			rd.lint(p, "a replacement without deletedRegion; ignored")
			return
		}
		rep := Replacement{Deleted: *rd.region(dr, ptr(p, "deletedRegion"))}
		if ic := rd.obj(rm, p, "insertedContent"); ic != nil {
			rep.Inserted = rd.str(ic, ptr(p, "insertedContent"), "text")
		}
		c.Replacements = append(c.Replacements, rep)
	})
	return c, len(c.Replacements) > 0
}

// decodeRun turns the bytes of one run, which the top-level decoder has
// already read whole (so they are JSON), into the generic tree encoding/json
// gives (map[string]any, []any, float64, string, bool, nil; the last of
// duplicate names; invalid UTF-8 replaced) and its fingerprint, "sha256:"
// and the hex SHA-256 of its RFC 8785 canonical form (canonicalHash).
//
// The usual run (valid UTF-8, no duplicate names) is decoded in one pass by
// treeDecoder and hashed by walking the tree, without building the canonical
// bytes. Anything else goes the slow way, encoding/json and Canonicalize,
// whose answers for such input treeDecoder does not try to match.
func decodeRun(v jsontext.Value, names map[string]string) (any, string, error) {
	d := treeDecoder{data: v, names: names}
	if tree, ok := d.value(0); ok && d.end() {
		return tree, treeHash(tree), nil
	}
	var tree any
	if err := stdjson.Unmarshal(v, &tree); err != nil {
		return nil, "", err
	}
	return tree, canonicalHash(v), nil
}

// treeHash is canonicalHash of the JSON a tree was decoded from, computed
// by writing the tree's RFC 8785 form into the hash as it is walked. The
// tree must come from treeDecoder: valid UTF-8, no duplicate names, finite
// numbers, for which jsontext.Value.Canonicalize gives exactly this text.
func treeHash(tree any) string {
	c := canonWriter{h: sha256.New(), buf: make([]byte, 0, canonChunk+512)}
	c.value(tree, 0)
	c.h.Write(c.buf)
	return "sha256:" + hex.EncodeToString(c.h.Sum(nil))
}

type canonWriter struct {
	h    hash.Hash
	buf  []byte
	keys [][]string // member names being sorted, one slice per depth
}

func (c *canonWriter) flush() {
	if len(c.buf) >= canonChunk {
		c.h.Write(c.buf)
		c.buf = c.buf[:0]
	}
}

func (c *canonWriter) value(v any, depth int) {
	switch v := v.(type) {
	case nil:
		c.buf = append(c.buf, "null"...)
	case bool:
		c.buf = strconv.AppendBool(c.buf, v)
	case float64:
		c.buf = appendCanonFloat(c.buf, v)
	case string:
		c.buf = appendCanonString(c.buf, v)
	case []any:
		c.buf = append(c.buf, '[')
		for i, e := range v {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			c.value(e, depth+1)
		}
		c.buf = append(c.buf, ']')
	case map[string]any:
		c.object(v, depth)
	}
	c.flush()
}

func (c *canonWriter) object(m map[string]any, depth int) {
	for len(c.keys) <= depth {
		c.keys = append(c.keys, nil)
	}
	keys := sortedKeys(c.keys[depth][:0], m)
	c.buf = append(c.buf, '{')
	for i, k := range keys {
		c.name(i, k)
		c.value(m[k], depth+1)
	}
	c.buf = append(c.buf, '}')
	clear(keys)
	c.keys[depth] = keys[:0]
}

// sortedKeys appends m's member names and extra to keys, in RFC 8785
// order.
func sortedKeys(keys []string, m map[string]any, extra ...string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	keys = append(keys, extra...)
	slices.SortFunc(keys, compareUTF16)
	return keys
}

// name writes the i-th member name of an object and its colon.
func (c *canonWriter) name(i int, k string) {
	if i > 0 {
		c.buf = append(c.buf, ',')
	}
	c.buf = appendCanonString(c.buf, k)
	c.buf = append(c.buf, ':')
}

func asObj(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

// kindOf is the kind of a decoded value in a message.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
