package sarif

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// SchemaURI is the $schema FromAGC writes.
const SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// SrcRoot is the uriBaseId of every artifact location FromAGC writes: the
// source root (GitHub: the repository root).
const SrcRoot = "%SRCROOT%"

// WriteOptions tune FromAGC.
type WriteOptions struct {
	// FS is the source root, used to resolve lines and line hashes. Nil:
	// no sources; every region is synthesized.
	FS fs.FS
	// FindingsOnly leaves out the results that did not become findings
	// (other kinds than fail, accepted suppressions). GitHub code scanning
	// ignores kind and suppressions and would show them as alerts.
	FindingsOnly bool
	// Category is the first segment of each run's automationDetails.id,
	// the GitHub code scanning category: <Category>/<gate.id>/. Empty is
	// "agc".
	Category string
}

// FromAGC converts responses to one SARIF log with one run per response
// (docs/sarif-mapping.md, "AGC → SARIF"). It does not check GitHub's
// limits; see CheckLimits.
func FromAGC(responses []*agc.Response, opts WriteOptions) (*gosarif.Report, error) {
	return fromAGC(responses, opts, NewSource(opts.FS))
}

// fromAGC is FromAGC reading sources through src.
func fromAGC(responses []*agc.Response, opts WriteOptions, src *Source) (*gosarif.Report, error) {
	rep := &gosarif.Report{Version: string(gosarif.Version210), Schema: SchemaURI, Runs: []*gosarif.Run{}}
	ids := automationIDs(responses, opts.Category)
	for i, r := range responses {
		run, err := runFromAGC(r, src, opts.FindingsOnly)
		if err != nil {
			return nil, fmt.Errorf("response %d (gate %q): %w", i, r.Gate.ID, err)
		}
		run.AutomationDetails = &gosarif.RunAutomationDetails{ID: &ids[i]}
		rep.Runs = append(rep.Runs, run)
	}
	return rep, nil
}

// automationIDs are the runs' automationDetails.id:
// <category>/<gate.id>/, numbered from the second run of a gate on.
func automationIDs(responses []*agc.Response, category string) []string {
	category = cmp.Or(category, "agc")
	seen := map[string]int{}
	ids := make([]string, len(responses))
	for i, r := range responses {
		seen[r.Gate.ID]++
		ids[i] = category + "/" + r.Gate.ID + "/"
		if n := seen[r.Gate.ID]; n > 1 {
			ids[i] = fmt.Sprintf("%s/%s/%d/", category, r.Gate.ID, n)
		}
	}
	return ids
}

// Encode is Marshal(FromAGC(responses, opts)), refused with a *LimitError
// when the log is beyond GitHub's limits on counts (CheckLimits). The size
// limit is the caller's: CheckSize. It writes the results without
// FromAGC's structs (writedirect.go) when it can.
func Encode(responses []*agc.Response, opts WriteOptions) ([]byte, error) {
	return encodeWith(responses, opts, NewSource(opts.FS))
}

// encodeWith is Encode reading sources through src.
func encodeWith(responses []*agc.Response, opts WriteOptions, src *Source) ([]byte, error) {
	if out, err := encodeDirect(responses, opts, src); err != errNotDirect {
		return out, err
	}
	return encodeViaFromAGC(responses, opts, src)
}

// encodeViaFromAGC is Encode through FromAGC and Marshal.
func encodeViaFromAGC(responses []*agc.Response, opts WriteOptions, src *Source) ([]byte, error) {
	rep, err := fromAGC(responses, opts, src)
	if err != nil {
		return nil, err
	}
	if err := CheckLimits(rep); err != nil {
		return nil, err
	}
	return Marshal(rep)
}

func runFromAGC(r *agc.Response, src *Source, findingsOnly bool) (*gosarif.Run, error) {
	w := newRunWriter(r, src)
	run, err := w.skeleton()
	if err != nil {
		return nil, err
	}
	for i := range r.Findings {
		res, err := w.result(&r.Findings[i], w.xs[i])
		if err != nil {
			return nil, fmt.Errorf("finding %d (%s): %w", i, r.Findings[i].ID, err)
		}
		run.Results = append(run.Results, res)
	}
	if !findingsOnly {
		run.Results = append(run.Results, w.otherResults()...)
	}
	return run, nil
}

// newRunWriter reads the agc-action/sarif member of each finding and
// makes the run's rules.
func newRunWriter(r *agc.Response, src *Source) *runWriter {
	w := &runWriter{resp: r, src: src, ruleIndex: map[string]int{}, descriptors: []*gosarif.ReportingDescriptor{},
		remedies: map[plainRemedy]rawCompact{}, checks: map[plainCheck]rawCompact{}}
	w.xs = make([]xFinding, len(r.Findings))
	for i := range r.Findings {
		w.xs[i] = xOfFinding(r.Findings[i].Unknown)
	}
	w.rules()
	return w
}

// skeleton is the run without its results (an empty list).
func (w *runWriter) skeleton() (*gosarif.Run, error) {
	r := w.resp
	driver := &gosarif.ToolComponent{Name: r.Gate.ID, Rules: w.descriptors}
	if r.Gate.Version != "" {
		driver.Version = strPtr(r.Gate.Version)
	}
	run := &gosarif.Run{Tool: gosarif.Tool{Driver: driver}, Results: []*gosarif.Result{}, ColumnKind: "utf16CodeUnits"}
	props, err := runProps(r)
	if err != nil {
		return nil, err
	}
	run.Properties = props
	return run, nil
}

func runProps(r *agc.Response) (gosarif.Properties, error) {
	p := gosarif.Properties{propVersion: agc.Version}
	for key, v := range map[string]any{
		propGate: r.Gate, propSubject: r.Subject, propVerdict: r.Verdict,
		propCoverage: r.Coverage, propAttempt: r.Attempt,
	} {
		raw, err := json.Marshal(v, json.Deterministic(true))
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", key, err)
		}
		p[key] = rawCompact(raw)
	}
	if r.Carried != nil {
		p[propCarried] = r.Carried
	}
	if len(r.Unknown) > 0 {
		p[propUnknown] = rawJSON(r.Unknown)
	}
	return p, nil
}

// rawJSON is JSON text that encoding/json (used by go-sarif) copies as is.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// rawCompact is JSON text json v2 wrote: compact and valid, so that
// resultEncoder copies it as is (encoding/json would compact it, which
// changes nothing).
type rawCompact []byte

func (r rawCompact) MarshalJSON() ([]byte, error) { return r, nil }

type runWriter struct {
	resp        *agc.Response
	xs          []xFinding // the agc-action/sarif member of each finding
	src         *Source
	descriptors []*gosarif.ReportingDescriptor
	ruleIndex   map[string]int
	remedies    map[plainRemedy]rawCompact // JSON of the run's plain remedies
	checks      map[plainCheck]rawCompact  // and checks without unknown members
}

// rules: one descriptor per class of coverage.classes, then per class of a
// finding not among them, then one disabled descriptor per not_checked
// entry.
func (w *runWriter) rules() {
	level := map[string]string{}
	why := map[string]string{}
	for i := range w.resp.Findings {
		f := &w.resp.Findings[i]
		if _, ok := level[f.Class]; !ok {
			level[f.Class], why[f.Class] = findingLevel(f, w.xs[i]), f.Why
		}
	}
	for _, c := range w.resp.Coverage.Classes {
		w.addRule(c, level[c], why[c])
	}
	for i := range w.resp.Findings {
		c := w.resp.Findings[i].Class
		w.addRule(c, level[c], why[c])
	}
	for _, nc := range w.resp.Coverage.NotChecked {
		id := "not-checked/" + agc.Slug(nc)
		for n := 2; w.has(id); n++ {
			id = fmt.Sprintf("not-checked/%s-%d", agc.Slug(nc), n)
		}
		d := descriptor(id, "Not checked: "+nc, "The gate "+w.resp.Gate.ID+" did not check this: "+nc+".", "warning")
		d.DefaultConfiguration.Enabled = boolPtr(false)
		d.Properties[propNotChecked] = nc
		w.ruleIndex[id] = len(w.descriptors)
		w.descriptors = append(w.descriptors, d)
	}
}

func (w *runWriter) has(id string) bool { _, ok := w.ruleIndex[id]; return ok }

func (w *runWriter) addRule(class, level, why string) {
	if w.has(class) {
		return
	}
	if level == "" {
		level = "warning"
	}
	full := why
	if full == "" {
		full = "Class " + class + " of the gate " + w.resp.Gate.ID + "."
	}
	w.ruleIndex[class] = len(w.descriptors)
	w.descriptors = append(w.descriptors, descriptor(class, class, full, level))
}

func descriptor(id, short, full, level string) *gosarif.ReportingDescriptor {
	return &gosarif.ReportingDescriptor{
		ID:                   id,
		Name:                 strPtr(pascal(id)),
		ShortDescription:     &gosarif.MultiformatMessageString{Text: strPtr(short)},
		FullDescription:      &gosarif.MultiformatMessageString{Text: strPtr(full)},
		Help:                 &gosarif.MultiformatMessageString{Text: strPtr(full)},
		DefaultConfiguration: &gosarif.ReportingConfiguration{Level: level},
		Properties:           gosarif.Properties{},
	}
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

// xFinding is a finding's agc-action/sarif member, decoded once.
type xFinding struct {
	rec xRecord
	ok  bool
	// compact is the finding's unknown members compacted, when they are
	// the member alone as xRecordMember writes it (so valid JSON).
	compact []byte
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

func strPtr(s string) *string { return &s }
func boolPtr(b bool) *bool    { return &b }
func intPtr(n int) *int       { return &n }
func uintPtr(n int) *uint     { u := uint(n); return &u }

// relPath reports whether p can be an artifact URI relative to the source
// root: not empty, not absolute, no scheme, not leaving the root.
func relPath(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "/") || hasScheme(p) || hasDrive(p) || strings.ContainsRune(p, '\\') {
		return false
	}
	c := path.Clean(p)
	return c == p && c != ".." && !strings.HasPrefix(c, "../")
}

// encodeURI percent-encodes a relative path for artifactLocation.uri
// (§3.4.3: a URI reference, RFC 3986).
func encodeURI(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
