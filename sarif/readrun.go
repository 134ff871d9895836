package sarif

import (
	"slices"
	"strings"
)

// runCtx is what reading a run's results needs from the rest of the run.
type runCtx struct {
	run       *Run
	artifacts []jv
	bases     jobj
	global    map[string]string // driver globalMessageStrings
	opts      Options
	each      func(*Result) // is given each result, which the run does not keep
}

// runHead reads everything of a run but its results.
func (rd *reader) runHead(m jobj, base at, opts Options) *runCtx {
	r := &Run{Pointer: base.String(), Props: rd.props(m, base)}
	ctx := &runCtx{run: r, opts: opts}
	rd.tool(r, m, base, ctx)
	ctx.artifacts = rd.arr(m, base, "artifacts")
	ctx.bases = rd.obj(m, base, "originalUriBaseIds")
	if ad := rd.obj(m, base, "automationDetails"); ad != nil {
		r.AutomationID = rd.str(ad, base.in("automationDetails"), "id")
	}
	rd.invocations(r, m, base)
	return ctx
}

// addResult reads the result v at pointer p into the run.
func (rd *reader) addResult(ctx *runCtx, v jv, p at) {
	if v.kind() != '{' {
		rd.lint(p, "a result is an object, not %s; skipped", v.kindName())
		return
	}
	// What the result's objects and arrays are indexed into is reused for
	// the next result: nothing of it is kept.
	mem, elems := len(rd.mem), len(rd.elems)
	res := rd.result(rd.index(v), p, ctx)
	res.size = len(v)
	rd.mem, rd.elems = rd.mem[:mem], rd.elems[:elems]
	ctx.each(res)
}

func (rd *reader) tool(r *Run, m jobj, base at, ctx *runCtx) {
	tb := base.in("tool")
	tool := rd.obj(m, base, "tool")
	if tool == nil {
		rd.lint(tb, "no tool; the gate is named %q", "unknown-tool")
		r.Driver = &Component{Name: "unknown-tool"}
		return
	}
	db := tb.in("driver")
	driver := rd.obj(tool, tb, "driver")
	if driver == nil {
		rd.lint(db, "no tool.driver; the gate is named %q", "unknown-tool")
		driver = jobj{{name: []byte("name"), v: jv(`"unknown-tool"`)}}
	}
	r.Driver = rd.component(driver, db)
	if r.Driver.Name == "" {
		rd.lint(db.in("name"), "no tool name; the gate is named %q", "unknown-tool")
		r.Driver.Name = "unknown-tool"
	}
	ctx.global = rd.messageStrings(driver, db, "globalMessageStrings")
	eb := tb.in("extensions")
	for i, v := range rd.arr(tool, tb, "extensions") {
		if v.kind() == '{' {
			r.Extensions = append(r.Extensions, rd.component(rd.index(v), eb.idx(i)))
		} else {
			rd.lint(eb.idx(i), "a tool extension is an object, not %s; skipped", v.kindName())
			r.Extensions = append(r.Extensions, &Component{})
		}
	}
}

func (rd *reader) component(m jobj, base at) *Component {
	c := &Component{Name: rd.str(m, base, "name"), Version: rd.str(m, base, "version")}
	if c.Version == "" {
		c.Version = rd.str(m, base, "semanticVersion")
	}
	rb := base.in("rules")
	for i, v := range rd.arr(m, base, "rules") {
		if v.kind() != '{' {
			rd.lint(rb.idx(i), "a rule is an object, not %s; skipped", v.kindName())
			c.Rules = append(c.Rules, &Rule{})
			continue
		}
		c.Rules = append(c.Rules, rd.rule(rd.index(v), rb.idx(i)))
	}
	return c
}

func (rd *reader) rule(m jobj, base at) *Rule {
	r := &Rule{
		ID:       rd.istr(m, base, "id"),
		Name:     rd.str(m, base, "name"),
		Short:    rd.multiformatText(m, base, "shortDescription"),
		Full:     rd.multiformatText(m, base, "fullDescription"),
		Help:     rd.multiformatText(m, base, "help"),
		HelpURI:  rd.str(m, base, "helpUri"),
		Messages: rd.messageStrings(m, base, "messageStrings"),
		Props:    rd.props(m, base),
	}
	if r.ID == "" {
		rd.lint(base.in("id"), "a rule without an id")
	}
	cb := base.in("defaultConfiguration")
	if cfg := rd.obj(m, base, "defaultConfiguration"); cfg != nil {
		r.Level = rd.level(cfg, cb)
		r.Disabled = !rd.boolean(cfg, cb, "enabled", true)
	}
	return r
}

// multiformatText is the text of a multiformatMessageString (§3.12), or its
// Markdown when it has no text.
func (rd *reader) multiformatText(m jobj, base at, key string) string {
	o := rd.obj(m, base, key)
	if o == nil {
		return ""
	}
	p := base.in(key)
	if t := rd.str(o, p, "text"); t != "" {
		return t
	}
	return rd.str(o, p, "markdown")
}

func (rd *reader) messageStrings(m jobj, base at, key string) map[string]string {
	o := rd.obj(m, base, key)
	if len(o) == 0 {
		return nil
	}
	out := make(map[string]string, len(o))
	p := base.in(key)
	// In the order of their ids, so that their lints come in one order.
	ids := make([]string, len(o))
	for i, m := range o {
		ids[i] = string(m.name)
	}
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) { // duplicate ids: the last is read
		out[id] = rd.multiformatText(o, p, id)
	}
	return out
}

// level reads a level member and checks it against §3.58.6.
func (rd *reader) level(m jobj, base at) string {
	l, known := rd.enum(m, base, "level", "none", "note", "warning", "error")
	if known {
		return l
	}
	if low := strings.ToLower(l); low == "none" || low == "note" || low == "warning" || low == "error" {
		rd.lint(base.in("level"), "level %q is not lower case; read as %q", l, low)
		return low
	}
	rd.lint(base.in("level"), "level %q is not one of none, note, warning, error; ignored", l)
	return ""
}

func (rd *reader) invocations(r *Run, m jobj, base at) {
	rd.objects(m, base, "invocations", func(inv jobj, p at) {
		if r.CommandLine == "" {
			r.CommandLine = rd.str(inv, p, "commandLine")
		}
		if !rd.boolean(inv, p, "executionSuccessful", true) {
			r.Failed = true
		}
		rd.objects(inv, p, "toolExecutionNotifications", func(n jobj, np at) {
			if rd.level(n, np) != "error" {
				return
			}
			if msg := rd.obj(n, np, "message"); msg != nil {
				r.Notices = append(r.Notices, rd.str(msg, np.in("message"), "text"))
			}
		})
		rd.overrides(r, inv, p)
	})
}

// overrides applies ruleConfigurationOverrides that disable a driver rule.
func (rd *reader) overrides(r *Run, inv jobj, base at) {
	rd.objects(inv, base, "ruleConfigurationOverrides", func(o jobj, p at) {
		cfg := rd.obj(o, p, "configuration")
		desc := rd.obj(o, p, "descriptor")
		if cfg == nil || desc == nil || rd.boolean(cfg, p.in("configuration"), "enabled", true) {
			return
		}
		if idx, ok := rd.integer(desc, p.in("descriptor"), "index"); ok && idx < len(r.Driver.Rules) {
			r.Driver.Rules[idx].Disabled = true
		} else if id := rd.str(desc, p.in("descriptor"), "id"); id != "" {
			for _, rule := range r.Driver.Rules {
				if rule.ID == id {
					rule.Disabled = true
				}
			}
		}
	})
}
