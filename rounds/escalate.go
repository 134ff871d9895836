package rounds

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	"github.com/agcgate/agc-action/validate"
)

// The finding an escalation adds: its class, location and options.
const (
	EscalationClass    = "budget-spent"
	EscalationLocation = "attempt"
	OptionAccept       = "accept as is"
	OptionKeepBlocking = "keep blocking"
)

// Escalation says why a round escalates and who decides.
type Escalation struct {
	Gate      string
	N, Budget int
	Early     bool   // before the budget: a class still-open in two consecutive rounds
	To        string // the login or org/team that decides; "" names no one
	// Open are the classes of the round's blocking findings, each with the
	// rounds of the chain it was blocking in.
	Open []ClassRounds
}

// ClassRounds is a class and the rounds (attempt.n) it was open in.
type ClassRounds struct {
	Class  string
	Rounds []int
}

// escalation says whether r, following base, escalates: it blocks at its
// budget (§10 MUST), or, asked to, a class is still-open in it and in the
// round before (§10 SHOULD; validate's L10.escalate-early).
func escalation(r *agc.Response, base []*agc.Response, p Policy) *Escalation {
	if r.Verdict != agc.Block {
		return nil
	}
	e := &Escalation{Gate: r.Gate.ID, N: r.Attempt.N, Budget: r.Attempt.Budget, To: p.EscalateTo}
	if r.Attempt.N < r.Attempt.Budget {
		if !p.EscalateEarly || !slices.ContainsFunc(validate.NextRound(base, agc.Doc{Response: r}), func(v validate.Violation) bool {
			return v.Rule == validate.LintEscalateEarly
		}) {
			return nil
		}
		e.Early = true
	}
	e.Open = openClasses(r, base)
	return e
}

// openClasses lists the classes of r's blocking findings, sorted, each with
// the rounds of base and r it was blocking in.
func openClasses(r *agc.Response, base []*agc.Response) []ClassRounds {
	var classes []string
	for _, f := range r.Blocking() {
		if !slices.Contains(classes, f.Class) {
			classes = append(classes, f.Class)
		}
	}
	slices.Sort(classes)
	out := make([]ClassRounds, len(classes))
	for i, cl := range classes {
		out[i].Class = cl
		for _, b := range append(slices.Clone(base), r) {
			if slices.ContainsFunc(b.Blocking(), func(f *agc.Finding) bool { return f.Class == cl }) && !slices.Contains(out[i].Rounds, b.Attempt.N) {
				out[i].Rounds = append(out[i].Rounds, b.Attempt.N)
			}
		}
	}
	return out
}

// escalate returns a copy of r that escalates: verdict escalate and one
// more blocking finding whose decide remedy asks e.To, with the options
// to accept as is and to keep blocking.
func escalate(r *agc.Response, base []*agc.Response, e *Escalation, p Policy) *agc.Response {
	out := *r
	out.Verdict = agc.Escalate
	id := r.Gate.ID + "/" + EscalationClass + "/" + EscalationLocation
	status := agc.StatusNew
	for _, b := range base {
		if slices.ContainsFunc(b.Findings, func(f agc.Finding) bool { return f.ID == id }) {
			status = agc.StatusStillOpen
		}
	}
	f := agc.Finding{ID: id, Class: EscalationClass, Location: EscalationLocation,
		What: e.Text(), Why: e.why(), Severity: agc.Blocking, Status: status,
		Remedy: agc.Remedy{Kind: agc.RemedyDecide, Ask: e.ask(), Options: []string{OptionAccept, OptionKeepBlocking}},
		Check:  agc.Check{Kind: agc.CheckPreview}}
	if r.Gate.Kind == agc.Judgment {
		f.Check = agc.Check{Kind: agc.CheckCondition, Condition: "A person with write access has decided on this pull request: " + OptionAccept + ", or " + OptionKeepBlocking + "."}
	}
	out.Findings = append(slices.DeleteFunc(slices.Clone(r.Findings), func(x agc.Finding) bool { return x.ID == id }), f)
	if out.Coverage.Complete && !slices.Contains(out.Coverage.Classes, EscalationClass) {
		out.Coverage.Classes = append(slices.Clone(out.Coverage.Classes), EscalationClass)
	}
	return &out
}

func (e *Escalation) ask() string {
	if e.To == "" {
		return "a person with write access to this repository (no one is named: the workflow sets no escalate-to)"
	}
	return "@" + e.To
}

func (e *Escalation) why() string {
	if e.Early {
		return "AGC §10: a gate should escalate early when the same class is still open in two consecutive rounds."
	}
	return "AGC §10: at attempt.n == attempt.budget a gate must not block again; it escalates to a person, who decides."
}

// Text is one sentence for the finding and the log: the round, and which
// classes stayed open over which rounds.
func (e *Escalation) Text() string {
	head := fmt.Sprintf("Round %d of %d still blocks, so the attempt budget is spent", e.N, e.Budget)
	if e.Early {
		head = fmt.Sprintf("Round %d of %d keeps a class open two rounds running, so the gate escalates early", e.N, e.Budget)
	}
	return head + ": " + e.open(func(s string) string { return s }) + "."
}

// Note is the paragraph that opens the review body, the check run's
// summary and the job summary of an escalated round: what the answer says
// is escaped, and e.To, a login or team the workflow names, is mentioned
// once, the one mention agc-action writes.
func (e *Escalation) Note() string {
	gate := render.Escape(e.Gate)
	head := fmt.Sprintf("**The attempt budget of agc/%s is spent** (round %d of %d, AGC §10)", gate, e.N, e.Budget)
	if e.Early {
		head = fmt.Sprintf("**agc/%s escalates early** (round %d of %d, AGC §10: a class is still open in two consecutive rounds)", gate, e.N, e.Budget)
	}
	who := "A person decides: @" + e.To + "."
	if e.To == "" {
		who = "No one is named to decide (the workflow sets no escalate-to): a person with write access to this repository decides."
	}
	return fmt.Sprintf("%s: %s. %s\n", head, e.open(render.Escape), who)
}

// open says which classes stayed open over which rounds.
func (e *Escalation) open(esc func(string) string) string {
	if len(e.Open) == 0 {
		return "it blocks"
	}
	parts := make([]string, len(e.Open))
	for i, c := range e.Open {
		verb := " over "
		if i == 0 {
			verb = " stayed open over "
		}
		parts[i] = esc(c.Class) + verb + roundList(c.Rounds)
	}
	return strings.Join(parts, ", ")
}

// roundList says "round 3", "rounds 1 and 3", "rounds 1–3", "rounds 1–2 and 4".
func roundList(ns []int) string {
	ns = slices.Clone(ns)
	slices.Sort(ns)
	var spans []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j == i {
			spans = append(spans, fmt.Sprint(ns[i]))
		} else {
			spans = append(spans, fmt.Sprintf("%d–%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	word := "rounds "
	if len(ns) == 1 {
		word = "round "
	}
	if len(spans) == 1 {
		return word + spans[0]
	}
	return word + strings.Join(spans[:len(spans)-1], ", ") + " and " + spans[len(spans)-1]
}
