package action

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/extract"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/validate"
	"github.com/bmatcuk/doublestar/v4"
)

// collected is every gate answer the Action was given.
type collected struct {
	gates  []agc.Doc         // one per gate, in input order
	source map[string]string // gate id -> where its answer came from
	agc    []*agc.Response   // answers given as AGC (uploaded as one SARIF log)
	checks []validate.Input  // the AGC documents validated
	vs     []validate.Violation
	lint   lintLines // repairs the readers made, for the log
	// paired reports whether an input line pairs files with a gate id.
	paired func(id string) bool
	runs   []sarifAnswer // unpaired SARIF runs, kept until every log is read
	// at places a JSON pointer into a kept AGC answer, by gate id, for a
	// finding of agc-validate about it (a broken rule of its round).
	at map[string]func(pointer string) diag.Place
	// unplaced are the refusals placeRefusals places, once every input
	// is read.
	unplaced []unplaced
}

// answer is one gate's answer as read from an input file.
type answer struct {
	src    string                          // where it came from, for messages
	in     *input                          // the file it was read from
	gateID diag.Place                      // where its gate id is (its file and pointer), for a finding about it
	record int                             // its line in a JSON Lines file, else 0
	pair   string                          // the gate its input line pairs the file with; "" unpaired
	at     func(pointer string) diag.Place // where a pointer into it is; nil: at its gate id
	resp   *agc.Response
	raw    []byte // the bytes to embed; nil: as agc.Encode writes resp
}

// input is a file answers were read from. A refusal of an answer is placed
// in it when every input is read (placeRefusals), all of a file's at once:
// a file of many refused answers (the same gate answering again and again)
// is then read once, not once for each of them.
type input struct {
	read func() ([]byte, error) // the file's bytes, read again when not kept
}

// unplaced is a refusal, c.vs[i], whose place is in record (0: the whole
// file) of in.
type unplaced struct {
	i      int
	in     *input
	record int
}

// sarifAnswer is a run of an unpaired SARIF log and its tool's name.
type sarifAnswer struct {
	answer
	tool string
}

// inputFile is a file an input line names, and the gate the line pairs it
// with ("" when none does).
type inputFile struct{ path, gate string }

// expand resolves each line's glob against root, sorted, each file once.
// A pattern that matches nothing is an error: a gate whose answer is
// missing must not pass unnoticed. A file matched by a paired line and by
// an unpaired glob is paired; paired with two gates, it is an error.
func expand(root string, patterns []filePattern) ([]inputFile, error) {
	var files []inputFile
	at := map[string]int{}
	fsys := cmdenv.MustSourceFS(root)
	for _, p := range patterns {
		paths, err := expandOne(fsys, root, p.glob)
		if err != nil {
			return nil, err
		}
		for _, f := range paths {
			i, seen := at[f]
			switch {
			case !seen:
				at[f] = len(files)
				files = append(files, inputFile{f, p.gate})
			case p.gate == "" || files[i].gate == p.gate:
			case files[i].gate == "":
				files[i].gate = p.gate
			default:
				return nil, fmt.Errorf("%s is paired with gate %s and with gate %s; a file answers one gate", relName(root, f), files[i].gate, p.gate)
			}
		}
	}
	return files, nil
}

// expandOne resolves one glob, or an absolute path, to files.
func expandOne(fsys fs.FS, root, p string) ([]string, error) {
	if filepath.IsAbs(p) {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return []string{p}, nil
	}
	matches, err := doublestar.Glob(fsys, filepath.ToSlash(p), doublestar.WithFilesOnly())
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", p, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("pattern %q matches no file under %s", p, root)
	}
	slices.Sort(matches)
	files := make([]string, len(matches))
	for i, m := range matches {
		files[i] = filepath.Join(root, filepath.FromSlash(m))
	}
	return files, nil
}

// collectAGC reads each file given as an AGC answer: an AGC response (or an
// array or JSON Lines of them), an answer in a bridged gate format, or an
// agent's message ending in an agc block. pair is the gate the workflow
// pairs the file with, "" when none.
func collectAGC(c *collected, reg *formats.Registry, root, file string, data []byte, pair string) {
	name := relName(root, file)
	switch {
	case formats.LooksLikeAGC(data) || (cmdenv.LooksLikeJSON(data) && !looksLikeOther(reg, data)):
		c.addAGC(name, data, pair) // the validator explains what is wrong with it
	case looksLikeOther(reg, data):
		c.addBridged(reg, root, name, data, pair)
	default:
		b, lints, err := extract.Find(name, data)
		if err != nil {
			c.vs = append(c.vs, unreadable(name, err))
			return
		}
		for _, l := range lints { // at most three (extract.Find)
			c.lint.add(fmt.Sprintf("%s:%d: %s", name, l.Line, l.Message))
		}
		c.addAGC(fmt.Sprintf("%s:%d", name, b.StartLine+1), b.Content, pair)
	}
}

// addBridged converts an answer in a neighbouring gate format. Formats
// whose fixes are ranges in the files (rdjson) read them through the
// workspace, so they become patch remedies; the others ignore it.
func (c *collected) addBridged(reg *formats.Registry, root, name string, data []byte, pair string) {
	f, _ := reg.Detect(name, data)
	opts := formats.ReadOptions{Gate: pair}
	if fsys, err := cmdenv.SourceFS(root); err == nil {
		opts.FS, opts.Root = fsys, filepath.ToSlash(root)
	}
	rs, lints, err := f.Read(name, data, opts)
	for _, l := range diag.Bound(lints) {
		c.lint.add(l.String())
	}
	if err != nil {
		c.vs = append(c.vs, unreadable(name, err))
		return
	}
	for i, r := range rs {
		raw, err := agc.Encode(r)
		if err != nil {
			c.vs = append(c.vs, unreadable(name, err))
			continue
		}
		src := fmt.Sprintf("%s (%s)", name, f.Name)
		if len(rs) > 1 {
			src = fmt.Sprintf("%s (%s, answer %d)", name, f.Name, i+1)
		}
		c.addAGC(src, raw, pair)
	}
}

// looksLikeOther reports whether a format other than AGC recognises data.
func looksLikeOther(reg *formats.Registry, data []byte) bool {
	f, err := reg.Detect("", data)
	return err == nil && f.Name != "agc" && f.Name != "sarif"
}

// addAGC validates one AGC document against the contract (validate.Bytes)
// and keeps the responses that decode; what it may not post of them is
// refused by add (validate.Postable), for AGC and SARIF answers alike.
func (c *collected) addAGC(name string, data []byte, pair string) {
	c.checks = append(c.checks, validate.Input{File: name, Data: data})
	c.vs = append(c.vs, validate.Bytes(name, data, agc.Limits{})...)
	docs, err := agc.DecodeAll(name, data, agc.Limits{})
	if err != nil {
		return // reported by the validator
	}
	in := &input{read: func() ([]byte, error) { return data, nil }}
	for _, d := range docs {
		if d.Response == nil {
			continue
		}
		at := func(ptr string) diag.Place { return d.PlaceIn(data, ptr) }
		gateID := diag.Place{File: d.File, Pointer: d.Prefix + "/gate/id"}
		if c.add(answer{src: d.Where(), in: in, gateID: gateID, record: d.Line, at: at, pair: pair, resp: d.Response, raw: d.Raw}) {
			c.agc = append(c.agc, d.Response)
		}
	}
}

// add keeps one gate's answer, without the members under agc-action/
// (stripOwn), unless it is refused (refusal) or its gate answered already;
// either is a finding of agc-validate, and no check run is posted from the
// answer. It reports whether the answer was kept.
func (c *collected) add(a answer) bool {
	a.raw = c.stripOwn(a.src, a.resp, a.raw)
	id := a.resp.Gate.ID
	if rule, msg := c.refusal(a); msg != "" {
		c.refuse(a.in, a.record, a.gateID, rule, msg)
		return false
	}
	if prev, ok := c.source[id]; ok {
		c.refuse(a.in, a.record, a.gateID, validate.ChainOrder,
			fmt.Sprintf("gate %q already answered in %s; give one answer per gate (the latest round), or validate the rounds with --chain", id, prev))
		return false
	}
	c.source[id] = a.src
	if a.at != nil && c.at != nil {
		c.at[id] = a.at
	}
	c.gates = append(c.gates, agc.Doc{Response: a.resp, Raw: a.raw})
	return true
}

// refusal says why an answer may not be posted as its gate: what
// validate.Postable refuses of any answer (its gate id), then what the
// workflow's pairing refuses: an answer of another gate in a paired file,
// or an answer from an unpaired file for a gate the workflow pairs with
// files of its own. "" when it may.
func (c *collected) refusal(a answer) (rule, msg string) {
	if vs := validate.Postable(a.resp); len(vs) > 0 {
		return vs[0].Rule, vs[0].Message
	}
	id := a.resp.Gate.ID
	switch {
	case a.pair != "" && id != a.pair:
		return validate.ClassPairing, fmt.Sprintf("the workflow pairs this file with gate %s, but this answer is for gate %s; a paired file answers its own gate alone, so nothing is posted for %s from it", a.pair, id, id)
	case a.pair == "" && c.paired != nil && c.paired(id):
		return validate.ClassPairing, fmt.Sprintf("the workflow pairs gate %s with files of its own; an answer for it from a file no line pairs with it is not posted", id)
	}
	return "", ""
}

// refuse records a finding of agc-validate about an answer, at p in
// record (0: the whole file) of in, placed by placeRefusals.
func (c *collected) refuse(in *input, record int, p diag.Place, rule, msg string) {
	r, _ := validate.RuleFor(rule)
	c.unplaced = append(c.unplaced, unplaced{len(c.vs), in, record})
	c.vs = append(c.vs, validate.Violation{Place: p, Rule: rule, Section: r.Section, Severity: validate.SeverityError, Message: msg})
}

// placeRefusals places every refusal in its file, reading each file once
// for all of its refusals; a file that cannot be read again leaves them
// at their file and pointer.
func (c *collected) placeRefusals() {
	byInput := map[*input]map[int][]*diag.Place{}
	var order []*input
	for _, u := range c.unplaced {
		if byInput[u.in] == nil {
			byInput[u.in] = map[int][]*diag.Place{}
			order = append(order, u.in)
		}
		byInput[u.in][u.record] = append(byInput[u.in][u.record], &c.vs[u.i].Place)
	}
	c.unplaced = nil
	for _, in := range order {
		data, err := in.read()
		if err != nil {
			continue
		}
		agc.LocateInRecords(data, byInput[in])
	}
}

// addSARIF keeps the runs of a SARIF log. A log paired with a gate is that
// gate's answer, whatever its tool is named, and must hold exactly one run;
// the runs of an unpaired log wait for addUnpairedRuns.
//
// Nothing keeps the log's bytes once its findings are read: a finding
// about a run places itself by reading the log again (reread), and the
// answers embed what agc.Encode writes of their responses, encoded when
// each check run is posted (Raw nil), not all at once here.
func (c *collected) addSARIF(name string, reread func() ([]byte, error), pair string, runs []cmdenv.SARIFRun) {
	in := &input{read: reread}
	at := func(ptr string) diag.Place { return diag.Place{File: name, Pointer: ptr} }
	if pair == "" {
		for i, run := range runs {
			c.runs = append(c.runs, sarifAnswer{answer{src: name, in: in, gateID: at(fmt.Sprintf("/runs/%d/tool/driver/name", i)), resp: run.Response}, run.Tool})
		}
		return
	}
	if len(runs) != 1 {
		msg := fmt.Sprintf("the workflow pairs this log with gate %s, but it holds no run: the gate answered nothing", pair)
		if len(runs) > 1 {
			msg = fmt.Sprintf("the workflow pairs this log with gate %s, but it holds %d runs; a paired log holds one run, so nothing is posted from it (pair each run's log on a line of its own, or leave the log unpaired)", pair, len(runs))
		}
		c.refuse(in, 0, at("/runs"), validate.ClassPairing, msg)
		return
	}
	resp := runs[0].Response
	agc.RenameGate(resp, pair)
	c.add(answer{src: name, in: in, gateID: at("/runs/0/tool/driver/name"), pair: pair, resp: resp})
}

// addUnpairedRuns keeps the runs of the unpaired SARIF logs, each under
// the gate id made from its tool's name (sarif.GateID), except when
// distinct tools became one id ("ESLint", "eslint"): then none of their
// runs is posted, so that no tool answers for another.
func (c *collected) addUnpairedRuns() {
	ids, tools := make([]string, len(c.runs)), make([]string, len(c.runs))
	for i, a := range c.runs {
		ids[i], tools[i] = a.resp.Gate.ID, a.tool
	}
	clashes := map[string][]string{}
	for _, cl := range sarif.Clashes(ids, tools) {
		clashes[cl.ID] = cl.Tools
	}
	for _, a := range c.runs {
		if names, ok := clashes[a.resp.Gate.ID]; ok {
			quoted := make([]string, len(names))
			for i, n := range names {
				quoted[i] = fmt.Sprintf("%q", n)
			}
			c.refuse(a.in, a.record, a.gateID, validate.ClassGateID, fmt.Sprintf("the SARIF tools %s all become gate id %q, so none of their runs is posted; pair each log with a gate id of its own (ID=FILE)", strings.Join(quoted, ", "), a.resp.Gate.ID))
			continue
		}
		c.add(a.answer)
	}
	c.runs = nil
}

// tooLarge records an input over the size limit (read up to one byte
// past it) as validate finds it, json.too-large at the limit's place,
// whatever format it would have been read as.
func (c *collected) tooLarge(name string, data []byte) {
	c.vs = append(c.vs, validate.Bytes(name, data, agc.Limits{})...)
}

// unreadable is a file that holds no gate answer at all.
func unreadable(name string, err error) validate.Violation {
	msg := err.Error()
	var xe *extract.Error
	if errors.As(err, &xe) {
		msg = "no AGC response, no known gate format, and no single agc block: " + xe.Error()
	}
	return validate.Violation{Place: diag.Place{File: name}, Rule: validate.ClassSyntax, Section: "§3", Severity: validate.SeverityError, Message: msg}
}

// relName names a file relative to the workspace when it lies inside it.
func relName(root, file string) string {
	if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return file
}

// collectDiffs reads each fixer's diff the diff input names as one
// deterministic gate's answer: the paired gate, or, unpaired, a gate
// named after the file (warned). Hunks become patch remedies against the
// files in the workspace, so they become suggestions.
func (r *actionRun) collectDiffs(c *collected) error {
	r.warnUnpaired("diff", r.cfg.diff, "a gate id made from its file's name")
	files, err := expand(r.root, r.cfg.diff)
	if err != nil {
		return &inputError{"diff", err.Error()}
	}
	fsys, err := cmdenv.SourceFS(r.root)
	if err != nil {
		return err
	}
	f, _ := r.reg.Lookup("diff")
	for _, in := range files {
		data, err := r.readWorkspace(in.path, agc.DefaultMaxBytes)
		if err != nil {
			return err
		}
		name := relName(r.root, in.path)
		if int64(len(data)) > agc.DefaultMaxBytes {
			c.tooLarge(name, data)
			continue
		}
		rs, lints, err := f.Read(name, data, formats.ReadOptions{FS: fsys, Root: filepath.ToSlash(r.root), FailLevel: r.cfg.failLevel, Gate: in.gate})
		for _, l := range diag.Bound(lints) {
			c.lint.add(l.String())
		}
		if err != nil {
			c.vs = append(c.vs, unreadable(name, err))
			continue
		}
		for _, resp := range rs {
			raw, err := agc.Encode(resp)
			if err != nil {
				c.vs = append(c.vs, unreadable(name, err))
				continue
			}
			c.addAGC(name+" (diff)", raw, in.gate)
		}
	}
	return nil
}
