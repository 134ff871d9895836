package validate

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/agcgate/agc-action/agc"
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
}

// Bytes validates the response or responses in one file, each on its own.
func Bytes(file string, data []byte, lim agc.Limits) []Violation {
	return Inputs([]Input{{File: file, Data: data}}, Options{Limits: lim})
}

// Inputs validates files: each response on its own, or with Options.Chain
// all of them as one chain. Violations come sorted by file and pointer.
func Inputs(inputs []Input, opts Options) []Violation {
	var vs []Violation
	var docs []agc.Doc
	for _, in := range inputs {
		ds, err := agc.DecodeAll(in.File, in.Data, opts.Limits)
		if err != nil {
			vs = append(vs, fromDecodeError(in.File, err))
			continue
		}
		docs = append(docs, ds...)
	}
	if opts.Chain {
		vs = append(vs, checkChain(docs)...)
	} else {
		for _, d := range docs {
			h := history{}
			if d.Response != nil && d.Response.Attempt.N == 1 {
				h = firstRound
			}
			vs = append(vs, checkDoc(d, h)...)
		}
	}
	sortViolations(vs)
	return vs
}

// checkDoc validates one decoded document given its chain history.
func checkDoc(d agc.Doc, h history) []Violation {
	file, prefix := place(d)
	var de *agc.Error
	if d.Err != nil && (!errors.As(d.Err, &de) || de.Class != agc.ClassSchema) {
		return []Violation{fromDecodeError(file, d.Err)}
	}
	sv, err := schema.ValidateBytes(d.Raw)
	if err != nil {
		return []Violation{fromDecodeError(file, err)}
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
		return append(vs, fromDecodeError(file, d.Err))
	}
	vs = append(vs, rv...)
	for i := range vs {
		vs[i].File, vs[i].Pointer = file, prefix+vs[i].Pointer
	}
	return vs
}

// place names where a document's violations are: the file (FILE:LINE for
// JSON Lines) and the pointer prefix of the document inside it.
func place(d agc.Doc) (file, prefix string) {
	if d.Line > 0 {
		return d.Where(), ""
	}
	return d.File, d.Prefix
}

// fromDecodeError turns an error of package agc into a violation.
// Its pointer is already relative to the file.
func fromDecodeError(file string, err error) Violation {
	var de *agc.Error
	if errors.As(err, &de) {
		v := violation(de.Class, de.Pointer, de.Msg)
		v.File, v.Offset = file, de.Offset
		return v
	}
	v := violation(ClassSyntax, "", err.Error())
	v.File = file
	return v
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

// Summary is one line counting a run's outcome.
func Summary(vs []Violation, responses int) string {
	e, l := Count(vs)
	return fmt.Sprintf("%d error(s), %d lint in %d response(s)", e, l, responses)
}
