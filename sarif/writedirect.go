package sarif

import (
	"bytes"
	"errors"
	"slices"
	"strconv"

	"github.com/agcgate/agc-action/agc"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// Encode writes each finding's result straight from the finding: building
// go-sarif's structs and property maps for 25,000 results, and then
// reading them back to write them, was a third of writing a log. The bytes
// are those Marshal(FromAGC(...)) writes (TestEncodeIsFromAGCMarshal,
// FuzzEncodeDirect): the run's skeleton (tool, rules, properties) is still
// go-sarif's, written by encoding/json as before, and so are what a
// finding rarely has and the results that are not findings (fixes, the
// response's agc-action/sarif results), written by resultEncoder. Anything
// the direct path cannot write (a remedy or unknown member that does not
// encode) sends the whole log through FromAGC and Marshal, which say why.

// errNotDirect: encodeDirect cannot write these responses.
var errNotDirect = errors.New("sarif: not written directly")

// encodeDirect is Encode without go-sarif's results; errNotDirect when it
// cannot write the responses, else Encode's answer.
func encodeDirect(responses []*agc.Response, opts WriteOptions, src *Source) ([]byte, error) {
	rep := &gosarif.Report{Version: string(gosarif.Version210), Schema: SchemaURI, Runs: []*gosarif.Run{}}
	ids := automationIDs(responses, opts.Category)
	writers := make([]*runWriter, len(responses))
	others := make([][]*gosarif.Result, len(responses))
	for i, r := range responses {
		w := newRunWriter(r, src)
		run, err := w.skeleton()
		if err != nil {
			return nil, errNotDirect
		}
		run.AutomationDetails = &gosarif.RunAutomationDetails{ID: &ids[i]}
		if !opts.FindingsOnly {
			others[i] = w.otherResults()
		}
		writers[i] = w
		rep.Runs = append(rep.Runs, run)
	}
	count := func(i int) int { return len(responses[i].Findings) + len(others[i]) }
	has := func(i int) bool { return count(i) > 0 }
	results := false
	for i := range responses {
		results = results || has(i)
	}
	var out []byte
	if results {
		var ok bool
		out, ok = spliceRuns(rep, has, 0, func(buf *bytes.Buffer, i int) error {
			return writers[i].writeResults(buf, others[i])
		})
		if !ok {
			return nil, errNotDirect
		}
	} else {
		// No results: the log is all skeleton.
		var err error
		if out, err = Marshal(rep); err != nil {
			return nil, errNotDirect
		}
	}
	if err := CheckLimits(standIns(rep, count)); err != nil {
		return nil, err
	}
	return out, nil
}

// standIns is rep with each run's results replaced by count(i) results of
// one location each, as every result the writer writes has: what
// CheckLimits counts.
func standIns(rep *gosarif.Report, count func(i int) int) *gosarif.Report {
	one := &gosarif.Result{Locations: []*gosarif.Location{{}}}
	c := *rep
	c.Runs = make([]*gosarif.Run, len(rep.Runs))
	for i, run := range rep.Runs {
		r := *run
		r.Results = slices.Repeat([]*gosarif.Result{one}, count(i))
		c.Runs[i] = &r
	}
	return &c
}

// writeResults writes the run's results as a JSON array: each finding's,
// then others (the results that are not findings).
func (w *runWriter) writeResults(buf *bytes.Buffer, others []*gosarif.Result) error {
	var e resultEncoder
	buf.WriteByte('[')
	start := buf.Len()
	fs := w.resp.Findings
	for i := range fs {
		if i > 0 {
			buf.WriteByte(',')
		}
		e.b, e.comma, e.bad = buf.AvailableBuffer(), false, false
		if !w.appendFinding(&e, &fs[i], w.xs[i]) {
			return errNotDirect
		}
		buf.Write(e.b)
		if i == 15 {
			// Room for the rest, from the size of the first 16.
			buf.Grow(sizeOfAll(buf.Len()-start, 16, len(fs)-16+len(others)))
		}
	}
	for i, r := range others {
		if i > 0 || len(fs) > 0 {
			buf.WriteByte(',')
		}
		if err := writeResult(buf, r, &e); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

// appendFinding appends the result of finding f, as resultEncoder writes
// w.result(f, xf); false when it cannot.
func (w *runWriter) appendFinding(e *resultEncoder, f *agc.Finding, xf xFinding) bool {
	remedy, err := w.remedyJSON(f.Remedy)
	if err != nil {
		return false
	}
	check, err := w.checkJSON(f.Check)
	if err != nil {
		return false
	}
	e.open()
	// properties, in the order of their keys (findingProps).
	e.name("properties")
	e.open()
	e.name(propCheck)
	e.value(check)
	e.name(propID)
	e.quote(f.ID)
	e.name(propLocation)
	e.quote(f.Location)
	e.name(propRemedy)
	e.value(remedy)
	e.name(propSeverity)
	e.quote(f.Severity)
	e.name(propStatus)
	e.quote(f.Status)
	if len(f.Unknown) > 0 {
		e.name(propUnknown)
		if xf.compact != nil {
			e.b = append(e.b, xf.compact...)
			e.comma = true
		} else {
			e.raw(f.Unknown)
		}
	}
	e.name(propWhy)
	e.quote(f.Why)
	e.close()

	e.name("ruleId")
	e.quote(f.Class)
	e.name("ruleIndex")
	e.b = strconv.AppendUint(e.b, uint64(w.ruleIndex[f.Class]), 10)
	e.comma = true
	e.name("kind")
	e.quote("fail")
	e.name("level")
	e.quote(findingLevel(f, xf))
	e.name("message")
	e.open()
	e.name("text")
	e.quote(f.What)
	e.close()

	x, hasX := xf.rec, xf.ok
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
	fixes := w.fixes(f, x, hasX)
	e.list("fixes", len(fixes), true, false, func(i int) { e.fix(fixes[i]) })
	e.close()
	return !e.bad
}

type bagEntry struct{ k, v string }

// stringBag writes member n, an object of strings: base's entries, and
// over's, which win; keys sorted, as encoding/json writes a map.
func (e *resultEncoder) stringBag(n string, base []bagEntry, over map[string]string) {
	keys := e.keys[:0]
	for _, b := range base {
		if _, ok := over[b.k]; !ok {
			keys = append(keys, b.k)
		}
	}
	for k := range over {
		keys = append(keys, k)
	}
	e.name(n)
	e.sortedObject(keys, func(k string) {
		v, ok := over[k]
		if !ok {
			for _, b := range base {
				if b.k == k {
					v = b.v
				}
			}
		}
		e.quote(v)
	})
}

// placed writes what resultEncoder writes of w.location's go-sarif
// location.
func (e *resultEncoder) placed(pl *placed) {
	e.open()
	e.name("physicalLocation")
	e.open()
	e.name("artifactLocation")
	e.open()
	e.name("uri")
	e.quote(pl.uri)
	e.name("uriBaseId")
	e.quote(SrcRoot)
	e.close()
	e.name("region")
	e.xRegion(&pl.region, pl.regionProp)
	e.close()
	if pl.hasLogical {
		e.name("logicalLocations")
		e.array(1, func(int) {
			e.open()
			e.name("name")
			e.quote(pl.logical)
			if pl.hasFQN {
				e.name("fullyQualifiedName")
				e.quote(pl.fqn)
			}
			e.close()
		})
	}
	if pl.placeholder {
		e.name("properties")
		e.open()
		e.name(propPlaceholder)
		e.b = append(e.b, "true"...)
		e.close()
	}
	e.close()
}

// xRegion writes what resultEncoder writes of toGoRegion(*r), with the
// agc/region property prop when not "".
func (e *resultEncoder) xRegion(r *xRegion, prop string) {
	e.open()
	for _, m := range [...]struct {
		n string
		v int
	}{{"startLine", r.StartLine}, {"startColumn", r.StartColumn}, {"endLine", r.EndLine}, {"endColumn", r.EndColumn}} {
		if m.v > 0 {
			e.name(m.n)
			e.b = strconv.AppendInt(e.b, int64(m.v), 10)
			e.comma = true
		}
	}
	if r.CharOffset != nil {
		e.name("charOffset")
		e.b = strconv.AppendInt(e.b, int64(*r.CharOffset), 10)
		e.comma = true
		e.name("charLength")
		e.b = strconv.AppendInt(e.b, int64(r.CharLength), 10)
		e.comma = true
	}
	if r.Snippet != "" {
		e.name("snippet")
		e.open()
		e.name("text")
		e.quote(r.Snippet)
		e.close()
	}
	if prop != "" {
		e.name("properties")
		e.open()
		e.name(propRegion)
		e.quote(prop)
		e.close()
	}
	e.close()
}
