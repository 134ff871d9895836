package validate

import (
	"errors"
	"regexp"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/schema"
)

// Input is one file given to the validator.
type Input struct {
	File string
	Data []byte
}

// Options control a validation run.
type Options struct {
	Limits agc.Limits
	// Chain treats all responses of all inputs, in order, as the rounds of
	// one chain (§9). Otherwise each response stands alone.
	Chain bool
	// ContractOnly checks the contract alone: not what agc-action refuses
	// to post of an answer the contract allows (Postable).
	ContractOnly bool

	// schemaAlways turns the fast path off (checkDoc), for the tests that
	// hold the two paths equal.
	schemaAlways bool
}

// Bytes validates the response or responses in one file against the
// contract alone (Options.ContractOnly), each on its own: for callers
// that check what they wrote, or that refuse what agc-action cannot post
// themselves (Postable).
func Bytes(file string, data []byte, lim agc.Limits) []Violation {
	return Inputs([]Input{{File: file, Data: data}}, Options{Limits: lim, ContractOnly: true})
}

// Inputs validates files: each response on its own, or with Options.Chain
// all of them as one chain, and, unless Options.ContractOnly, whether
// agc-action would post each (Postable). Violations come sorted by file and pointer,
// each placed at the line and column of its pointer in its file.
func Inputs(inputs []Input, opts Options) []Violation {
	var vs []Violation
	var docs []agc.Doc
	for _, in := range inputs {
		ds, err := agc.DecodeAll(in.File, in.Data, opts.Limits)
		if err != nil {
			vs = append(vs, fromDecodeError(in.File, 0, err))
			continue
		}
		docs = append(docs, ds...)
	}
	if opts.Chain {
		vs = append(vs, checkChain(docs, opts.schemaAlways)...)
	} else {
		for _, d := range docs {
			h := history{}
			if d.Response != nil && d.Response.Attempt.N == 1 {
				h = firstRound
			}
			vs = append(vs, checkDoc(d, h, opts.schemaAlways)...)
		}
	}
	if !opts.ContractOnly {
		for _, d := range docs {
			vs = append(vs, postableIn(d)...)
		}
	}
	locate(inputs, vs, opts.Limits.Scans)
	sortViolations(vs)
	return vs
}

// checkDoc validates one decoded document given its chain history;
// schemaAlways runs the schema validator even where the fast path would
// not (Options.schemaAlways).
func checkDoc(d agc.Doc, h history, schemaAlways bool) []Violation {
	var de *diag.Error
	if d.Err != nil && (!errors.As(d.Err, &de) || de.Class != agc.ClassSchema) {
		return []Violation{fromDecodeError(d.File, d.Line, d.Err)}
	}
	// The fast path: a decoded response the schema accepts (schema.Accepts,
	// one walk of the bytes) needs no validator; the schema validator runs
	// only to explain a refusal, so its messages are the ones reported.
	var sv []schema.Violation
	if d.Response == nil || schemaAlways || !schema.Accepts(d.Raw) {
		var err error
		if sv, err = schema.ValidateBytes(d.Raw); err != nil {
			return []Violation{fromDecodeError(d.File, d.Line, err)}
		}
	}
	var rv []Violation
	if d.Response != nil {
		rv = checkResponse(d.Response, h)
	}
	vs := make([]Violation, 0, len(sv)+len(rv))
	for _, s := range sv {
		if coveredByRule(s.Pointer, rv) {
			continue
		}
		v := violation(ClassSchema, s.Pointer, s.Message)
		v.Section = sectionOf(s.Pointer)
		vs = append(vs, v)
	}
	if d.Response == nil && len(sv) == 0 {
		return append(vs, fromDecodeError(d.File, d.Line, d.Err))
	}
	vs = append(vs, rv...)
	within(d, vs)
	return vs
}

// within places violations found in document d in its file: the file, the
// JSON Lines record, and the pointer of the document inside the file.
func within(d agc.Doc, vs []Violation) {
	for i := range vs {
		vs[i].File, vs[i].Record, vs[i].Pointer = d.File, d.Line, d.Prefix+vs[i].Pointer
	}
}

// fromDecodeError turns an error of package agc into a violation. Its
// place is already in the whole file.
func fromDecodeError(file string, record int, err error) Violation {
	var de *diag.Error
	if errors.As(err, &de) {
		v := violation(de.Class, de.Pointer, de.Msg)
		v.Place = de.Place
		v.File, v.Record = file, record
		return v
	}
	v := violation(ClassSyntax, "", err.Error())
	v.File, v.Record = file, record
	return v
}

// locate gives each violation that has no line yet the line, column and
// offset of its pointer in its input's bytes: one walk per file, or per
// record of a JSON Lines file. scans counts the bytes it reads
// (Options.Limits.Scans).
func locate(inputs []Input, vs []Violation, scans *diag.ScanCounter) {
	data := map[string][]byte{}
	for _, in := range inputs {
		if _, ok := data[in.File]; !ok {
			data[in.File] = in.Data
		}
	}
	// By file, then by record (0: the file is one document), so that
	// each file is read once however many violations it has.
	todo := map[string]map[int][]*diag.Place{}
	for i := range vs {
		if vs[i].Line == 0 {
			byRecord := todo[vs[i].File]
			if byRecord == nil {
				byRecord = map[int][]*diag.Place{}
				todo[vs[i].File] = byRecord
			}
			byRecord[vs[i].Record] = append(byRecord[vs[i].Record], &vs[i].Place)
		}
	}
	for file, byRecord := range todo {
		src, ok := data[file]
		if !ok {
			continue
		}
		agc.LocateInRecords(src, byRecord, scans)
	}
}

var payloadParent = regexp.MustCompile(`^/findings/\d+/(remedy|check)`)

// coveredByRule reports whether a schema violation restates a payload rule
// that the rule checker reported under the same remedy or check, so each
// problem is reported once, under its [V] rule class.
func coveredByRule(pointer string, rv []Violation) bool {
	parent := payloadParent.FindString(pointer)
	if parent == "" {
		return false
	}
	for _, v := range rv {
		if (v.Rule == RemedyPayload || v.Rule == CheckPayload) && strings.HasPrefix(v.Pointer, parent) {
			return true
		}
	}
	return false
}

// sections maps the top-level members of a response to the spec section
// that defines them.
var sections = []struct{ prefix, section string }{
	{"/gate", "§4"}, {"/subject", "§5"}, {"/verdict", "§6"}, {"/findings", "§7"},
	{"/coverage", "§8"}, {"/carried", "§9"}, {"/attempt", "§10"},
}

// sectionOf names the spec section a JSON pointer into a response falls in.
func sectionOf(pointer string) string {
	if payloadParent.MatchString(pointer) {
		if strings.Contains(pointer, "/check") {
			return "§7.2"
		}
		return "§7.1"
	}
	for _, s := range sections {
		if strings.HasPrefix(pointer, s.prefix) {
			return s.section
		}
	}
	return "§3"
}
