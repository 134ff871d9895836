// Package collect gathers the gate answers of one run (of the Action, or
// of agc-sarif github) from the files they were given in: AGC answers,
// agents' messages, answers in bridged formats, SARIF runs. It keeps each
// gate's one answer and refuses, as findings of agc-validate placed in
// their files, what may not be posted: what validate.Postable refuses, an
// answer of another gate in a file paired with a gate (GATE-ID=FILE), an
// answer from an unpaired file for a gate paired with files of its own,
// distinct SARIF tools whose names become one gate id, and a gate that
// answers twice. It removes the members under agc-action/ an answer brings
// (stripOwn), with a lint line for each.
//
// It reads no file itself: the caller reads each input and gives its bytes
// (and a function that reads it again, to place a refusal), and the file
// system bridged formats resolve their fixes through (Set.FS).
package collect

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/extract"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/validate"
)

// Set is every gate answer of a run, as it is collected.
type Set struct {
	Gates  []agc.Doc         // one per gate, in input order
	Source map[string]string // gate id -> where its answer came from
	AGC    []*agc.Response   // answers given as AGC (uploaded as one SARIF log)
	Checks []validate.Input  // the AGC documents validated
	// Vs are the violations of the AGC documents (File, AddAGC) and the
	// refusals, the findings of agc-validate.
	Vs   []validate.Violation
	Lint Lints // repairs the readers made and members removed, for the log
	// At places a JSON pointer into a kept AGC answer, by gate id, for a
	// finding of agc-validate about it (a broken rule of its round).
	At map[string]func(pointer string) diag.Place

	// Formats detects and reads the bridged formats File accepts; nil:
	// formats.Default().
	Formats *formats.Registry
	// FS and Root are the workspace bridged formats whose fixes are
	// ranges in the files (rdjson) read them through; nil: not read.
	FS   fs.FS
	Root string

	// scans, if not nil, counts the bytes of the inputs read to decode
	// them and place their refusals, for the tests that this stays linear.
	scans *diag.ScanCounter
	// paired reports whether the workflow pairs a gate id with files.
	paired func(id string) bool
	runs   []sarifAnswer // unpaired SARIF runs, kept until AddUnpairedRuns
	// unplaced are the refusals PlaceRefusals places, once every input
	// is read.
	unplaced []unplaced
}

// New is an empty Set. paired reports whether the run pairs a gate id
// with files of its own (nil: none is): an answer for such a gate from an
// unpaired file is refused.
func New(paired func(id string) bool) *Set {
	return &Set{Source: map[string]string{}, At: map[string]func(string) diag.Place{}, paired: paired}
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
// in it when every input is read (PlaceRefusals), all of a file's at once:
// a file of many refused answers (the same gate answering again and again)
// is then read once, not once for each of them.
type input struct {
	read func() ([]byte, error) // the file's bytes, read again when not kept
}

// unplaced is a refusal, c.Vs[i], whose place is in record (0: the whole
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

// File reads a file given as AGC answers: an AGC response (or an array or
// JSON Lines of them), an answer in a bridged gate format, or an agent's
// message ending in an agc block. name is how the file is named; pair is
// the gate the run pairs the file with, "" when none.
func (c *Set) File(name string, data []byte, pair string) {
	reg := c.Formats
	if reg == nil {
		reg = formats.Default()
	}
	switch {
	case formats.LooksLikeAGC(data) || (cmdenv.LooksLikeJSON(data) && !looksLikeOther(reg, data)):
		c.AddAGC(name, data, pair) // the validator explains what is wrong with it
	case looksLikeOther(reg, data):
		c.addBridged(reg, name, data, pair)
	default:
		b, lints, err := extract.Find(name, data)
		if err != nil {
			c.Unreadable(name, err)
			return
		}
		for _, l := range lints { // at most three (extract.Find)
			c.Lint.Add(fmt.Sprintf("%s:%d", name, l.Line), l.Message)
		}
		c.AddAGC(fmt.Sprintf("%s:%d", name, b.StartLine+1), b.Content, pair)
	}
}

// addBridged converts an answer in a neighbouring gate format. Formats
// whose fixes are ranges in the files (rdjson) read them through the
// workspace, so they become patch remedies; the others ignore it.
func (c *Set) addBridged(reg *formats.Registry, name string, data []byte, pair string) {
	f, _ := reg.Detect(name, data)
	c.AddRead(f, name, data, formats.ReadOptions{Gate: pair, FS: c.FS, Root: c.Root})
}

// AddRead reads data, named name, as format f and adds each response it
// holds as an answer of opts.Gate (AddAGC), named after the file and the
// format; its lints are kept and a failure to read is an unreadable
// answer.
func (c *Set) AddRead(f formats.Format, name string, data []byte, opts formats.ReadOptions) {
	rs, lints, err := f.Read(name, data, opts)
	c.Lint.AddAll(lints)
	if err != nil {
		c.Unreadable(name, err)
		return
	}
	for i, r := range rs {
		raw, err := agc.Encode(r)
		if err != nil {
			c.Unreadable(name, err)
			continue
		}
		src := fmt.Sprintf("%s (%s)", name, f.Name)
		if len(rs) > 1 {
			src = fmt.Sprintf("%s (%s, answer %d)", name, f.Name, i+1)
		}
		c.AddAGC(src, raw, opts.Gate)
	}
}

// looksLikeOther reports whether a format other than AGC recognises data.
func looksLikeOther(reg *formats.Registry, data []byte) bool {
	f, err := reg.Detect("", data)
	return err == nil && f.Name != "agc" && f.Name != "sarif"
}

// AddAGC validates one AGC document against the contract (validate.Bytes)
// and keeps the responses that decode (Decoded).
func (c *Set) AddAGC(name string, data []byte, pair string) {
	c.Checks = append(c.Checks, validate.Input{File: name, Data: data})
	c.Vs = append(c.Vs, validate.Bytes(name, data, agc.Limits{Scans: c.scans})...)
	docs, err := agc.DecodeAll(name, data, agc.Limits{Scans: c.scans})
	if err != nil {
		return // reported by the validator
	}
	c.Decoded(data, docs, pair)
}

// Decoded keeps the responses of docs, decoded from data, unvalidated;
// what may not be posted of them is refused by add (validate.Postable),
// for AGC and SARIF answers alike.
func (c *Set) Decoded(data []byte, docs []agc.Doc, pair string) {
	in := &input{read: func() ([]byte, error) { return data, nil }}
	for _, d := range docs {
		if d.Response == nil {
			continue
		}
		at := func(ptr string) diag.Place { return d.PlaceIn(data, ptr) }
		gateID := diag.Place{File: d.File, Pointer: d.Prefix + "/gate/id"}
		if c.add(answer{src: d.Where(), in: in, gateID: gateID, record: d.Line, at: at, pair: pair, resp: d.Response, raw: d.Raw}) {
			c.AGC = append(c.AGC, d.Response)
		}
	}
}

// add keeps one gate's answer, without the members under agc-action/
// (stripOwn), unless it is refused (refusal) or its gate answered already;
// either is a finding of agc-validate, and no check run is posted from the
// answer. It reports whether the answer was kept.
func (c *Set) add(a answer) bool {
	a.raw = c.stripOwn(a.src, a.resp, a.raw)
	id := a.resp.Gate.ID
	if rule, msg := c.refusal(a); msg != "" {
		c.refuse(a.in, a.record, a.gateID, rule, msg)
		return false
	}
	if prev, ok := c.Source[id]; ok {
		c.refuse(a.in, a.record, a.gateID, validate.ChainOrder,
			fmt.Sprintf("gate %q already answered in %s; give one answer per gate (the latest round), or validate the rounds with --chain", id, prev))
		return false
	}
	c.Source[id] = a.src
	if a.at != nil && c.At != nil {
		c.At[id] = a.at
	}
	c.Gates = append(c.Gates, agc.Doc{Response: a.resp, Raw: a.raw})
	return true
}

// refusal says why an answer may not be posted as its gate: what
// validate.Postable refuses of any answer (its gate id), then what the
// workflow's pairing refuses: an answer of another gate in a paired file,
// or an answer from an unpaired file for a gate the workflow pairs with
// files of its own. "" when it may.
func (c *Set) refusal(a answer) (rule, msg string) {
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
// record (0: the whole file) of in, placed by PlaceRefusals.
func (c *Set) refuse(in *input, record int, p diag.Place, rule, msg string) {
	r, _ := validate.RuleFor(rule)
	c.unplaced = append(c.unplaced, unplaced{len(c.Vs), in, record})
	c.Vs = append(c.Vs, validate.Violation{Place: p, Rule: rule, Section: r.Section, Severity: validate.SeverityError, Message: msg})
}

// PlaceRefusals places every refusal in its file, reading each file once
// for all of its refusals; a file that cannot be read again leaves them
// at their file and pointer.
func (c *Set) PlaceRefusals() {
	byInput := map[*input]map[int][]*diag.Place{}
	var order []*input
	for _, u := range c.unplaced {
		if byInput[u.in] == nil {
			byInput[u.in] = map[int][]*diag.Place{}
			order = append(order, u.in)
		}
		byInput[u.in][u.record] = append(byInput[u.in][u.record], &c.Vs[u.i].Place)
	}
	c.unplaced = nil
	for _, in := range order {
		data, err := in.read()
		if err != nil {
			continue
		}
		agc.LocateInRecords(data, byInput[in], c.scans)
	}
}

// SARIF reads a SARIF log (formats.ReadSARIFRuns, with opts) and keeps
// its runs, returning the reader's lints. A log paired with a gate is that
// gate's answer, whatever its tool is named, and must hold exactly one run;
// the runs of an unpaired log wait for AddUnpairedRuns.
//
// Nothing keeps the log's bytes once its findings are read: a finding
// about a run places itself by reading the log again (reread), and the
// answers embed what agc.Encode writes of their responses, encoded when
// each check run is posted (Raw nil), not all at once here.
func (c *Set) SARIF(name string, data []byte, reread func() ([]byte, error), pair string, opts formats.ReadOptions) ([]diag.Lint, error) {
	rs, tools, lints, err := formats.ReadSARIFRuns(name, data, opts)
	if err != nil {
		return lints, err
	}
	in := &input{read: reread}
	at := func(ptr string) diag.Place { return diag.Place{File: name, Pointer: ptr} }
	if pair == "" {
		for i, resp := range rs {
			tool := ""
			if i < len(tools) { // one name per run
				tool = tools[i]
			}
			c.runs = append(c.runs, sarifAnswer{answer{src: name, in: in, gateID: at(fmt.Sprintf("/runs/%d/tool/driver/name", i)), resp: resp}, tool})
		}
		return lints, nil
	}
	if len(rs) != 1 {
		msg := fmt.Sprintf("the workflow pairs this log with gate %s, but it holds no run: the gate answered nothing", pair)
		if len(rs) > 1 {
			msg = fmt.Sprintf("the workflow pairs this log with gate %s, but it holds %d runs; a paired log holds one run, so nothing is posted from it (pair each run's log on a line of its own, or leave the log unpaired)", pair, len(rs))
		}
		c.refuse(in, 0, at("/runs"), validate.ClassPairing, msg)
		return lints, nil
	}
	agc.RenameGate(rs[0], pair)
	c.add(answer{src: name, in: in, gateID: at("/runs/0/tool/driver/name"), pair: pair, resp: rs[0]})
	return lints, nil
}

// AddUnpairedRuns keeps the runs of the unpaired SARIF logs, each under
// the gate id made from its tool's name (agc.ToolGateID), except when
// distinct tools became one id ("ESLint", "eslint"): then none of their
// runs is posted, so that no tool answers for another.
func (c *Set) AddUnpairedRuns() {
	ids, tools := make([]string, len(c.runs)), make([]string, len(c.runs))
	for i, a := range c.runs {
		ids[i], tools[i] = a.resp.Gate.ID, a.tool
	}
	clashes := map[string][]string{}
	for _, cl := range agc.Clashes(ids, tools) {
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

// TooLarge records an input over the size limit (read up to one byte
// past it) as validate finds it, json.too-large at the limit's place,
// whatever format it would have been read as.
func (c *Set) TooLarge(name string, data []byte) {
	c.Vs = append(c.Vs, validate.Bytes(name, data, agc.Limits{})...)
}

// Unreadable records a file that holds no gate answer at all.
func (c *Set) Unreadable(name string, err error) {
	c.Vs = append(c.Vs, unreadable(name, err))
}

func unreadable(name string, err error) validate.Violation {
	msg := err.Error()
	var xe *extract.Error
	if errors.As(err, &xe) {
		msg = "no AGC response, no known gate format, and no single agc block: " + xe.Error()
	}
	return validate.Violation{Place: diag.Place{File: name}, Rule: validate.ClassSyntax, Section: "§3", Severity: validate.SeverityError, Message: msg}
}
