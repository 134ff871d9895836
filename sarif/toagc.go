package sarif

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json/jsontext"
)

// Levels in order, for --fail-level (§3.27.10).
var levelRank = map[string]int{"none": 0, "note": 1, "warning": 2, "error": 3}

func (o Options) failRank() int {
	switch o.FailLevel {
	case "none":
		return 99
	case "":
		return levelRank["error"]
	}
	if r, ok := levelRank[o.FailLevel]; ok && o.FailLevel != "none" {
		return r
	}
	return levelRank["error"]
}

// agcRun converts one run to a response as its results are read
// (docs/sarif-mapping.md, "SARIF → AGC"): each result that fails becomes a
// finding, kept in the response or written to out; the others are kept as
// records. The results of a run Write wrote are kept, and the run is
// restored whole at the end.
type agcRun struct {
	opts  Options
	src   *Source
	lints *diag.Lints // converting's
	out   *agcWriter  // nil: the findings are kept in r

	run      *Run
	r        *agc.Response
	restored bool
	ids      agc.FindingIDs
	others   []xRecord
	classes  []string // of the findings, in order of first appearance
	seen     map[string]bool

	resultsLen, read, n int // the results' bytes; those read, in n results
}

// start makes the response around the findings from the run's head.
func (c *agcRun) start(run *Run, resultsLen int) {
	c.run, c.resultsLen = run, resultsLen
	if _, ok := run.Props[propVersion]; ok {
		c.restored = true
		return
	}
	c.begin()
	if c.out != nil {
		c.out.begin(c.r)
	}
}

func (c *agcRun) begin() {
	c.r = &agc.Response{
		AGC:     agc.Version,
		Gate:    agc.Gate{ID: agc.ToolGateID(c.run.Driver.Name), Kind: agc.Deterministic, Version: c.run.Driver.Version},
		Subject: agc.Subject{Kind: cmp.Or(c.opts.SubjectKind, agc.SubjectCommit), Fingerprint: placeholder},
		Verdict: agc.Allow,
		Attempt: agc.Attempt{N: 1, Budget: orDefault(c.opts.Budget, agc.ConvertedBudget)},
	}
	c.ids, c.seen = agc.FindingIDs{}, map[string]bool{}
	c.read, c.n = 0, 0
}

// add takes one result as it is read.
func (c *agcRun) add(res *Result) {
	if c.restored {
		c.run.Results = append(c.run.Results, res)
		return
	}
	c.read += res.size
	if c.n++; c.n == sizingResults {
		c.size()
	}
	if !makesFinding(res) {
		c.others = append(c.others, otherRecord(res))
		return
	}
	f := finding(c.run, res, c.r.Gate.ID, c.src, c.opts, c.lints)
	f.ID = c.ids.Unique(f.ID)
	if f.Severity == agc.Blocking {
		c.r.Verdict = agc.Block
	}
	if !c.seen[f.Class] {
		c.seen[f.Class] = true
		c.classes = append(c.classes, f.Class)
	}
	if c.out != nil {
		c.out.finding(f)
	} else {
		c.r.Findings = append(c.r.Findings, f)
	}
}

// sizingResults is how many results are read before the findings' room
// is made for the rest (size).
const sizingResults = 64

// size makes room for the findings of the run's results, as many as the
// results read so far let one expect from the size of the rest: a finding
// is large, and regrowing the findings would copy them again and again.
func (c *agcRun) size() {
	want := int(int64(c.resultsLen) * int64(c.n) / int64(max(c.read, 1)))
	want += want / 16
	if want <= len(c.r.Findings) {
		return
	}
	ids := make(agc.FindingIDs, want)
	maps.Copy(ids, c.ids)
	c.ids = ids
	if c.out == nil {
		c.r.Findings = slices.Grow(c.r.Findings, want-len(c.r.Findings))
	}
}

// end completes the response once the run is read: its fingerprint,
// coverage and other results; a run Write wrote is restored, or, when
// its properties cannot be, converted as any other.
func (c *agcRun) end(run *Run) error {
	if c.restored {
		r, ls := restoreRun(run, c.src, c.opts)
		c.lints.AddAll(ls)
		if r == nil {
			out := c.out
			c.out, c.restored = nil, false
			c.begin()
			for _, res := range run.Results {
				c.add(res)
			}
			c.out = out
			c.complete()
			r = c.r
		}
		c.r = r
		if c.out != nil {
			return c.out.whole(r)
		}
		return nil
	}
	c.complete()
	if c.out != nil {
		return c.out.finish(c.r)
	}
	return nil
}

func (c *agcRun) complete() {
	c.r.Subject.Fingerprint = c.run.Fingerprint
	c.r.Coverage = coverage(c.run, c.classes, c.others)
	if len(c.others) > 0 {
		c.r.Unknown = xResponseMember(&xResponse{Results: c.others})
	}
}

// makesFinding is whether a result becomes a finding: it failed, is not
// suppressed and is not absent from the baseline.
func makesFinding(res *Result) bool {
	return res.Kind == "fail" && !res.Suppressed && res.BaselineState != "absent"
}

// finding converts one result; a remedy weaker than the result's fixes
// is a lint in lints, naming the fix and why.
func finding(run *Run, res *Result, gate string, src *Source, opts Options, lints *diag.Lints) agc.Finding {
	place := locationString(res.Loc)
	f := agc.Finding{
		Class:    res.RuleID,
		Location: agc.FormatLocation(place, position(res.Loc)),
		What:     res.Message,
		Why:      ruleReason(run, res),
		Severity: agc.Advisory,
		Status:   agc.StatusNew,
		Remedy:   remedy(run, res, src, lints),
		Check:    agc.Check{Kind: agc.CheckPreview},
	}
	if levelRank[res.Level] >= opts.failRank() {
		f.Severity = agc.Blocking
	}
	if run.CommandLine != "" {
		f.Check = agc.Check{Kind: agc.CheckCommand, Run: run.CommandLine}
	}
	id := identity(res, src)
	f.ID = gate + "/" + f.Class + "/" + place + "@" + string(id[:])
	rec := record(res)
	f.Unknown = withHelpMember(xRecordMember(&rec), res)
	return f
}

// HelpMember is the finding member that carries the help URI of the rule
// of a finding converted from SARIF, so a review comment can link the
// rule: {"agc-action/helpUri": URI}, present only when the rule has one.
// It is presentation only (untrusted: a comment links it only when it is
// https); nothing decides anything by it.
const HelpMember = "agc-action/helpUri"

// withHelpMember adds HelpMember to members, the finding's unknown-members
// object, when res's rule has a help URI. members is its own: it is written
// in place, grown only when its capacity is too small.
func withHelpMember(members jsontext.Value, res *Result) jsontext.Value {
	n := len(members)
	if res.Rule == nil || res.Rule.HelpURI == "" || n < 2 {
		return members
	}
	// ,"agc-action/helpUri":URI} in place of the closing brace, as
	// json.Marshal writes the map, without its reflection.
	out := members[:n-1]
	if string(members) != "{}" {
		out = append(out, ',')
	}
	out = append(out, `"`+HelpMember+`":`...)
	out, err := jsontext.AppendQuote(out, res.Rule.HelpURI)
	if err != nil {
		members[n-1] = '}' // when it was written over
		return members
	}
	return append(out, '}')
}

// position is the region of a location in a file as a finding's
// position: none without a path, or for a region this package made up.
func position(l *Loc) agc.Position {
	if l == nil || l.Path == "" || l.Region == nil || l.Region.Origin != "" {
		return agc.Position{}
	}
	rg := l.Region
	return agc.Position{Line: rg.StartLine, Column: rg.StartColumn, EndLine: rg.EndLine, EndColumn: rg.EndColumn}
}

// locationString is path#logical, the path, the logical location, or "."
// (the whole subject) when the result has no location.
func locationString(l *Loc) string {
	switch {
	case l == nil:
		return "."
	case l.Path != "" && l.Logical != "":
		return l.Path + "#" + l.Logical
	case l.Path != "":
		return l.Path
	}
	return l.Logical
}

// ruleReason is a finding's why: its rule and tool, and the rule's
// description when it has one.
func ruleReason(run *Run, res *Result) string {
	if res.Rule != nil {
		for _, s := range []string{res.Rule.Short, res.Rule.Full, res.Rule.Name} {
			if s = strings.TrimSpace(s); s != "" {
				return "Rule " + res.RuleID + " of " + run.Driver.Name + ": " + s
			}
		}
	}
	return "Rule " + res.RuleID + " of " + run.Driver.Name + "."
}

// identity is a short hash of what identifies the result without its line
// number: the tool's fingerprints, else its line-content hash, else the
// text of its first line, else its message.
func identity(res *Result, src *Source) [12]byte {
	var id string
	switch {
	case len(res.Fingerprints) > 0:
		id = "fp:" + firstValue(res.Fingerprints)
	case res.Partial[lineHashKey] != "":
		id = "lh:" + res.Partial[lineHashKey]
	default:
		id = "tx:" + lineText(res, src) + "\x00" + res.Message
	}
	sum := sha256.Sum256([]byte(id))
	var out [12]byte
	hex.Encode(out[:], sum[:6])
	return out
}

func firstValue(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys[0] + "=" + m[keys[0]]
}

// lineText is the trimmed text of the result's first line, from the
// source root or the region's snippet.
func lineText(res *Result, src *Source) string {
	if res.Loc == nil || res.Loc.Region == nil {
		return ""
	}
	rg := res.Loc.Region
	if res.Loc.Relative && rg.StartLine > 0 {
		if s, ok := src.Line(res.Loc.Path, rg.StartLine); ok {
			return trimLine(s)
		}
	}
	if rg.Snippet != "" {
		first, _, _ := strings.Cut(rg.Snippet, "\n")
		return trimLine(first)
	}
	return ""
}

// remedy is a patch when every replacement of the first fix has a known
// find text, else a delegate to the author naming the rule.
// remedy is a patch of the first fix that can be one, else a delegate to
// the author. A result with fixes, none of which can be a patch, is a lint
// at its first fix saying why: the strongest remedy the tool offered is
// not the one the finding carries (AGC §7.1).
func remedy(run *Run, res *Result, src *Source, lints *diag.Lints) agc.Remedy {
	why := ""
	for i, fix := range res.Fixes {
		edits, reason := fixEdits(fix, src)
		if reason == "" {
			return agc.Remedy{Kind: agc.RemedyPatch, Edits: edits}
		}
		if i == 0 {
			why = reason
		}
	}
	help := ""
	if res.Rule != nil && res.Rule.HelpURI != "" {
		help = " (" + res.Rule.HelpURI + ")"
	}
	authority := "rule " + res.RuleID + " of " + run.Driver.Name + help
	if why != "" && lints != nil {
		msg := "the fix of this result cannot become a patch remedy: " + why
		if n := len(res.Fixes); n > 1 {
			msg = fmt.Sprintf("none of the %d fixes of this result can become a patch remedy; the first: %s", n, why)
		}
		lints.Add(lintAt(res.Fixes[0].Pointer, msg+"; the finding's remedy is delegate to the author of the change"))
	}
	return agc.Remedy{Kind: agc.RemedyDelegate, Role: "author of the change", Authority: authority}
}

// fixEdits is fix as patch edits, or why it cannot be one.
func fixEdits(fix Fix, src *Source) ([]agc.Edit, string) {
	var edits []agc.Edit
	for _, c := range fix.Changes {
		for _, rep := range c.Replacements {
			at := agc.FormatLocation(c.Path, agc.Position{Line: rep.Deleted.StartLine, Column: rep.Deleted.StartColumn,
				EndLine: rep.Deleted.EndLine, EndColumn: rep.Deleted.EndColumn})
			find, ok := "", false
			if c.Relative {
				find, ok = src.Text(c.Path, rep.Deleted)
			}
			if !ok && rep.Deleted.Snippet != "" {
				find, ok = rep.Deleted.Snippet, true
			}
			switch {
			case !ok && !c.Relative:
				return nil, fmt.Sprintf("the text it replaces at %s is unknown: the path is not under the source root and the region has no snippet", at)
			case !ok && !src.Exists(c.Path):
				return nil, fmt.Sprintf("the text it replaces at %s is unknown: the file is not under the source root (--source-root) and the region has no snippet", at)
			case !ok:
				return nil, fmt.Sprintf("the text it replaces at %s is unknown: the region is not in the file, or this log's fixes passed %d bytes of text, and the region has no snippet", at, src.texts.Limit())
			case find == "":
				return nil, fmt.Sprintf("it inserts at %s without replacing text, and a patch edit replaces a text it finds", at)
			}
			edits = append(edits, agc.Edit{Path: c.Path, Find: find, Replace: rep.Inserted})
		}
	}
	if len(edits) == 0 {
		return nil, "it changes nothing"
	}
	return edits, ""
}

func record(res *Result) xRecord {
	x := xRecord{Level: res.Level, BaselineState: res.BaselineState, Partial: res.Partial, Fingerprints: res.Fingerprints}
	if res.Loc != nil {
		x.URI, x.Logical, x.Region = res.Loc.Path, res.Loc.Logical, toXRegion(res.Loc.Region)
	}
	x.Fixes = toXFixes(res.Fixes)
	return x
}

func otherRecord(res *Result) xRecord {
	x := record(res)
	x.RuleID, x.Message, x.Suppressed = res.RuleID, res.Message, res.Suppressed
	if res.Kind != "fail" {
		x.Kind = res.Kind
	}
	return x
}

// coverage: the classes are the run's enabled rules and every class seen;
// it is complete unless the tool says its execution failed or reported an
// error; disabled rules and tool errors are not_checked.
func coverage(run *Run, classes []string, others []xRecord) agc.Coverage {
	c := agc.Coverage{Complete: !run.Failed && len(run.Notices) == 0, Classes: []string{}}
	seen := map[string]bool{}
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			c.Classes = append(c.Classes, id)
		}
	}
	for _, comp := range append([]*Component{run.Driver}, run.Extensions...) {
		for _, rule := range comp.Rules {
			if rule.Disabled {
				c.NotChecked = append(c.NotChecked, "rule "+rule.ID+" (disabled)")
			} else {
				add(rule.ID)
			}
		}
	}
	for _, class := range classes {
		add(class)
	}
	for _, o := range others {
		add(o.RuleID)
	}
	if run.Failed {
		c.NotChecked = append(c.NotChecked, "the tool reported that its execution failed")
	}
	for _, n := range run.Notices {
		c.NotChecked = append(c.NotChecked, "tool error: "+n)
	}
	return c
}

// orDefault is n, or def when n is not positive.
func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
