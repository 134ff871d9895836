package validate

import (
	"fmt"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json/jsontext"
)

// unknownMembers lints members the contract does not define. Namespaced
// extension members, whose name contains a "/" (such as
// "agc-action/carried-from"), are extensions by design and not reported.
func unknownMembers(r *agc.Response) []Violation {
	var vs []Violation
	add := func(at string, u agc.Unknown) {
		for _, name := range memberNames(u) {
			if strings.Contains(name, "/") {
				continue
			}
			vs = append(vs, violation(LintUnknownMember, at+"/"+escapePointer(name),
				fmt.Sprintf("member %q is not part of AGC %s; it is kept, but other tools will not understand it (namespace it as \"vendor/%s\")", name, agc.Version, name)))
		}
	}
	add("", r.Unknown)
	add("/gate", r.Gate.Unknown)
	add("/subject", r.Subject.Unknown)
	add("/coverage", r.Coverage.Unknown)
	add("/attempt", r.Attempt.Unknown)
	for i, f := range r.Findings {
		add(fp(i, ""), f.Unknown)
		add(fp(i, "/remedy"), f.Remedy.Unknown)
		add(fp(i, "/check"), f.Check.Unknown)
		for j, e := range f.Remedy.Edits {
			add(fp(i, fmt.Sprintf("/remedy/edits/%d", j)), e.Unknown)
		}
	}
	return vs
}

// memberNames lists the names of a JSON object's members, in order.
func memberNames(obj agc.Unknown) []string {
	var names []string
	_ = agc.EachMember(obj, func(k string, _ jsontext.Value) { names = append(names, k) })
	return names
}

// escapePointer escapes one reference token of a JSON pointer (RFC 6901).
func escapePointer(s string) string {
	return agc.PointerToken(s)
}
