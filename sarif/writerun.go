package sarif

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// runWriter writes one response's run.
type runWriter struct {
	resp      *agc.Response
	xs        []xFinding // the agc-action/sarif member of each finding
	others    []xRecord  // the results that did not become findings, unless FindingsOnly
	src       *Source
	rules     []rule
	ruleIndex map[string]int
	remedies  map[plainRemedy][]byte // JSON of the run's plain remedies
	checks    map[plainCheck][]byte  // and checks without unknown members
}

// rule is a reporting descriptor: one a class, or a disabled one standing
// for a coverage.not_checked entry.
type rule struct {
	id, short, full, level string
	notChecked             string
	disabled               bool
}

// xFinding is a finding's agc-action/sarif member, decoded once.
type xFinding struct {
	rec xRecord
	ok  bool
	// compact is the finding's unknown members compacted, when they are
	// the member alone as xRecordMember writes it (so valid JSON).
	compact []byte
}

// newRunWriter reads the agc-action/sarif member of each finding (and,
// unless findingsOnly, of the response) and makes the run's rules.
func newRunWriter(r *agc.Response, src *Source, findingsOnly bool) *runWriter {
	w := &runWriter{resp: r, src: src, ruleIndex: map[string]int{},
		remedies: map[plainRemedy][]byte{}, checks: map[plainCheck][]byte{}}
	w.xs = make([]xFinding, len(r.Findings))
	for i := range r.Findings {
		w.xs[i] = xOfFinding(r.Findings[i].Unknown)
	}
	if !findingsOnly && len(r.Unknown) > 0 {
		var m struct {
			X xResponse `json:"agc-action/sarif"`
		}
		_ = json.Unmarshal(r.Unknown, &m)
		w.others = m.X.Results
	}
	w.makeRules()
	return w
}

// checkLimits checks GitHub's limits on the results and rules of the i-th
// run.
func (w *runWriter) checkLimits(i int) error {
	p := ptrIdx("/runs", i)
	if n := len(w.resp.Findings) + len(w.others); n > MaxResultsPerRun {
		return &LimitError{Place: diag.Place{Pointer: p + "/results"}, Limit: "results in one run", Count: n, Max: MaxResultsPerRun}
	}
	if n := len(w.rules); n > MaxRulesPerRun {
		return &LimitError{Place: diag.Place{Pointer: p + "/tool/driver/rules"}, Limit: "rules in one run", Count: n, Max: MaxRulesPerRun}
	}
	return nil
}

// makeRules: one rule per class of coverage.classes, then per class of a
// finding not among them, then one disabled rule per not_checked entry.
func (w *runWriter) makeRules() {
	level := map[string]string{}
	why := map[string]string{}
	for i := range w.resp.Findings {
		f := &w.resp.Findings[i]
		if _, ok := level[f.Class]; !ok {
			level[f.Class], why[f.Class] = findingLevel(f, w.xs[i]), f.Why
		}
	}
	for _, c := range w.resp.Coverage.Classes {
		w.addClass(c, level[c], why[c])
	}
	for i := range w.resp.Findings {
		c := w.resp.Findings[i].Class
		w.addClass(c, level[c], why[c])
	}
	for _, nc := range w.resp.Coverage.NotChecked {
		id := "not-checked/" + agc.Slug(nc)
		for n := 2; w.has(id); n++ {
			id = fmt.Sprintf("not-checked/%s-%d", agc.Slug(nc), n)
		}
		w.addRule(rule{id: id, short: "Not checked: " + nc, full: "The gate " + w.resp.Gate.ID + " did not check this: " + nc + ".",
			level: "warning", notChecked: nc, disabled: true})
	}
}

func (w *runWriter) has(id string) bool { _, ok := w.ruleIndex[id]; return ok }

func (w *runWriter) addClass(class, level, why string) {
	if !w.has(class) {
		full := cmp.Or(why, "Class "+class+" of the gate "+w.resp.Gate.ID+".")
		w.addRule(rule{id: class, short: class, full: full, level: cmp.Or(level, "warning")})
	}
}

func (w *runWriter) addRule(r rule) {
	w.ruleIndex[r.id] = len(w.rules)
	w.rules = append(w.rules, r)
}

// write writes the run, its automationDetails.id id.
func (w *runWriter) write(e *encoder, id string) error {
	r := w.resp
	e.open()
	e.name("tool")
	e.open()
	e.name("driver")
	e.open()
	e.name("name")
	e.quote(r.Gate.ID)
	e.name("rules")
	e.array(len(w.rules), func(i int) { e.rule(&w.rules[i]) })
	if r.Gate.Version != "" {
		e.name("version")
		e.quote(r.Gate.Version)
	}
	e.close()
	e.close()
	e.name("results")
	e.b = append(e.b, '[')
	start := len(e.b)
	for i := range r.Findings {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := w.writeFinding(e, &r.Findings[i], w.xs[i]); err != nil {
			return fmt.Errorf("finding %d (%s): %w", i, r.Findings[i].ID, err)
		}
		if i == 15 {
			// Room for the rest, from the size of the first 16.
			e.grow((len(e.b) - start) * (len(r.Findings) - 16 + len(w.others)) / 16 * 9 / 8)
		}
		if len(e.b) >= flushAt {
			start -= len(e.b)
			e.flush()
		}
	}
	for i := range w.others {
		if i > 0 || len(r.Findings) > 0 {
			e.b = append(e.b, ',')
		}
		w.writeOther(e, i, &w.others[i])
	}
	e.b = append(e.b, ']')
	e.comma = true
	e.name("automationDetails")
	e.open()
	e.name("id")
	e.quote(id)
	e.close()
	e.name("columnKind")
	e.quote("utf16CodeUnits")
	return w.writeProps(e)
}

// writeProps writes the run's properties, in the order of their keys: the
// response's members that SARIF has no place for.
func (w *runWriter) writeProps(e *encoder) error {
	r := w.resp
	e.name("properties")
	e.open()
	for _, m := range []struct {
		key string
		v   any
	}{{propAttempt, r.Attempt}, {propCarried, r.Carried}, {propCoverage, r.Coverage}, {propGate, r.Gate},
		{propSubject, r.Subject}, {propUnknown, r.Unknown}, {propVerdict, r.Verdict}, {propVersion, agc.Version}} {
		switch v := m.v.(type) {
		case []string:
			if v != nil {
				e.name(m.key)
				e.array(len(v), func(i int) { e.quote(v[i]) })
			}
		case agc.Unknown:
			if len(v) > 0 {
				e.name(m.key)
				if err := e.raw(v); err != nil {
					return fmt.Errorf("encode %s: %w", m.key, err)
				}
			}
		case string:
			e.name(m.key)
			e.quote(v)
		default:
			raw, err := json.Marshal(v, json.Deterministic(true))
			if err != nil {
				return fmt.Errorf("encode %s: %w", m.key, err)
			}
			e.member(m.key, raw)
		}
	}
	e.close()
	e.close()
	return nil
}

func (e *encoder) rule(r *rule) {
	e.open()
	e.name("id")
	e.quote(r.id)
	e.name("name")
	e.quote(pascal(r.id))
	e.text("shortDescription", r.short)
	e.text("fullDescription", r.full)
	e.name("defaultConfiguration")
	e.open()
	if r.disabled {
		e.name("enabled")
		e.b = append(e.b, "false"...)
		e.comma = true
	}
	e.name("level")
	e.quote(r.level)
	e.close()
	e.text("help", r.full)
	if r.disabled {
		e.name("properties")
		e.open()
		e.name(propNotChecked)
		e.quote(r.notChecked)
		e.close()
	}
	e.close()
}

// pascal makes a rule's friendly name (§3.49.7) from its id.
func pascal(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z':
			if up {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	if b.Len() == 0 || b.String()[0] >= '0' && b.String()[0] <= '9' {
		return "Rule" + b.String()
	}
	return b.String()
}

// baselineStates maps status (§9) to baselineState (§3.27.24); regressed
// has no native value and is also kept in agc/status.
var baselineStates = map[string]string{agc.StatusNew: "new", agc.StatusStillOpen: "unchanged", agc.StatusRegressed: "new"}

// writeFinding writes the result of finding f.
func (w *runWriter) writeFinding(e *encoder, f *agc.Finding, xf xFinding) error {
	remedy, err := cachedJSON(w.remedies, plainRemedy{f.Remedy.Kind, f.Remedy.Tool, f.Remedy.Run, f.Remedy.Role, f.Remedy.Authority, f.Remedy.Ask},
		f.Remedy.Input == nil && f.Remedy.Edits == nil && f.Remedy.Options == nil && f.Remedy.Applied == nil && f.Remedy.Unknown == nil, f.Remedy)
	if err != nil {
		return fmt.Errorf("encode %s: %w", propRemedy, err)
	}
	check, err := cachedJSON(w.checks, plainCheck{f.Check.Kind, f.Check.Run, f.Check.Condition}, f.Check.Unknown == nil, f.Check)
	if err != nil {
		return fmt.Errorf("encode %s: %w", propCheck, err)
	}
	e.open()
	// properties, in the order of their keys.
	e.name("properties")
	e.open()
	e.member(propCheck, check)
	e.str(propID, f.ID, false)
	e.str(propLocation, f.Location, false)
	e.member(propRemedy, remedy)
	e.str(propSeverity, f.Severity, false)
	e.str(propStatus, f.Status, false)
	if xf.compact != nil && len(f.Unknown) > 0 {
		e.member(propUnknown, xf.compact)
	} else if len(f.Unknown) > 0 {
		e.name(propUnknown)
		if err := e.raw(f.Unknown); err != nil {
			return fmt.Errorf("encode %s: %w", propUnknown, err)
		}
	}
	e.str(propWhy, f.Why, false)
	e.close()

	x, hasX := xf.rec, xf.ok
	w.writeHead(e, f.Class, "fail", findingLevel(f, xf), f.What)
	_, ownHash := x.Partial[lineHashKey]
	pl := w.place(f.Location, f.ID, x, hasX, patchEdits(f.Remedy), !ownHash)
	e.name("locations")
	e.array(1, func(int) { e.placed(&pl) })
	var fp, partial map[string]string
	if hasX {
		fp, partial = x.Fingerprints, x.Partial
	}
	e.stringBag("fingerprints", []bagEntry{{fingerprintKey, f.ID}}, fp)
	e.stringBag("partialFingerprints", []bagEntry{{fingerprintKey, f.ID}, {lineHashKey, pl.lineHash}}, partial)
	if bs, ok := baselineStates[f.Status]; ok {
		e.name("baselineState")
		e.quote(bs)
	}
	if hasX && len(x.Fixes) > 0 {
		e.fixes(writableFixes(x.Fixes))
	} else {
		e.fixes(w.patchFixes(f))
	}
	e.close()
	return nil
}

// writeHead writes a result's rule, kind, level and message.
func (w *runWriter) writeHead(e *encoder, ruleID, kind, level, message string) {
	e.name("ruleId")
	e.quote(ruleID)
	e.int("ruleIndex", w.ruleIndex[ruleID], false)
	e.name("kind")
	e.quote(kind)
	e.name("level")
	e.quote(level)
	e.text("message", message)
}

// writeOther writes the i-th result of the response's x-sarif member: a
// SARIF result that did not become a finding (other kinds, accepted
// suppressions, absent).
func (w *runWriter) writeOther(e *encoder, i int, x *xRecord) {
	e.open()
	e.name("properties")
	e.open()
	e.name(propOther)
	e.b = append(e.b, "true"...)
	e.close()
	w.writeHead(e, x.RuleID, cmp.Or(x.Kind, "fail"), cmp.Or(x.Level, "warning"), cmp.Or(x.Message, "Rule "+x.RuleID+" reported a result."))
	pl := w.place(cmp.Or(x.URI, "."), fmt.Sprintf("%s/other/%d", w.resp.Gate.ID, i), *x, true, nil, true)
	e.name("locations")
	e.array(1, func(int) { e.placed(&pl) })
	if len(x.Fingerprints) > 0 {
		e.stringBag("fingerprints", nil, x.Fingerprints)
	}
	e.stringBag("partialFingerprints", []bagEntry{{lineHashKey, pl.lineHash}}, x.Partial)
	if x.Suppressed {
		// An accepted external suppression (§3.35), every member given a
		// value: a GUID derived from the gate and the result's position,
		// and the result's own location.
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s/suppression/%d", w.resp.Gate.ID, i)))
		h := hex.EncodeToString(sum[:16])
		e.name("suppressions")
		e.array(1, func(int) {
			e.open()
			e.name("kind")
			e.quote("external")
			e.name("status")
			e.quote("accepted")
			e.name("location")
			e.placed(&pl)
			e.name("guid")
			e.quote(h[0:8] + "-" + h[8:12] + "-5" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32])
			e.name("justification")
			e.quote("Accepted in the log this result was converted from.")
			e.close()
		})
	}
	e.name("baselineState")
	e.quote(cmp.Or(x.BaselineState, "new"))
	e.fixes(writableFixes(x.Fixes))
	e.close()
}

// findingLevel: the level a SARIF result had when the finding came from
// one, else error for blocking and warning for advisory.
func findingLevel(f *agc.Finding, x xFinding) string {
	if x.ok && x.rec.Level != "" {
		return x.rec.Level
	}
	if f.Severity == agc.Blocking {
		return "error"
	}
	return "warning"
}

// xOfFinding reads the agc-action/sarif member of a finding's unknown
// members.
func xOfFinding(u agc.Unknown) xFinding {
	q := []byte(u)
	if spaceOutsideStrings(q) {
		// agc.Decode keeps the member as the file spells it (agc.Encode
		// indents it); removing white space does not change what it says.
		c := jsontext.Value(bytes.Clone(q))
		if c.Compact() == nil {
			q = c
		}
	}
	if x, ok := parseXMember(q); ok {
		return xFinding{rec: x, ok: true, compact: q}
	}
	var m struct {
		X *xRecord `json:"agc-action/sarif"`
	}
	if len(u) == 0 || json.Unmarshal(u, &m) != nil || m.X == nil {
		return xFinding{}
	}
	return xFinding{rec: *m.X, ok: true}
}

func patchEdits(r agc.Remedy) []agc.Edit {
	if r.Kind == agc.RemedyPatch {
		return r.Edits
	}
	return nil
}

// plainRemedy is a remedy with only string members, which a linter's
// findings share (the same delegate per rule): its JSON is kept per run.
type plainRemedy struct{ kind, tool, run, role, authority, ask string }

type plainCheck struct{ kind, run, condition string }

// cachedJSON is v's JSON, kept in cache under key when v is plain (key
// then says all of it).
func cachedJSON[K comparable](cache map[K][]byte, key K, plain bool, v any) ([]byte, error) {
	if raw, ok := cache[key]; ok && plain {
		return raw, nil
	}
	raw, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return nil, err
	}
	if plain {
		cache[key] = raw
	}
	return raw, nil
}

// spaceOutsideStrings reports whether v, taken as JSON text, has white
// space outside its strings.
func spaceOutsideStrings(v []byte) bool {
	in := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return true
		}
	}
	return false
}
