package validate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agcgate/agc-action/agc"
)

// history is what earlier rounds of a chain said: the ids raised as
// findings and the ids carried. known is false when there may have been
// earlier rounds that the validator was not given.
type history struct {
	known    bool
	findings map[string]bool
	carried  map[string]bool
}

// firstRound is the history of a chain's first round.
var firstRound = history{known: true}

// Response checks one decoded response against the [V] rules of §6–§10 and
// the lint, given what earlier rounds said. Pointers are relative to the
// response.
func checkResponse(r *agc.Response, h history) []Violation {
	var vs []Violation
	vs = append(vs, checkVerdict(r)...)
	vs = append(vs, checkFindings(r)...)
	vs = append(vs, checkCoverage(r)...)
	vs = append(vs, checkRounds(r, h)...)
	vs = append(vs, checkAttempt(r)...)
	vs = append(vs, lintResponse(r)...)
	return vs
}

func fp(i int, rest string) string { return fmt.Sprintf("/findings/%d%s", i, rest) }

func isRepair(kind string) bool { return kind == agc.RemedyRewrite || kind == agc.RemedyGenerate }

// checkVerdict enforces §6.
func checkVerdict(r *agc.Response) []Violation {
	var vs []Violation
	blocking := 0
	repairable := 0
	hasDecide := false
	for i, f := range r.Findings {
		if f.Remedy.Kind == agc.RemedyDecide {
			hasDecide = true
		}
		if f.Severity != agc.Blocking {
			continue
		}
		blocking++
		if isRepair(f.Remedy.Kind) {
			repairable++
		}
		switch r.Verdict {
		case agc.Allow:
			vs = append(vs, violation(AllowNoBlocking, fp(i, "/severity"),
				fmt.Sprintf("verdict is allow but finding %q is blocking", f.ID)))
		case agc.Repaired:
			if !isRepair(f.Remedy.Kind) || !f.Remedy.IsApplied() {
				vs = append(vs, violation(RepairedAllApplied, fp(i, "/remedy"),
					fmt.Sprintf("verdict is repaired but blocking finding %q has a %s remedy %s; it needs a rewrite or generate remedy with applied: true",
						f.ID, orNone(f.Remedy.Kind), appliedWord(f.Remedy))))
			}
		case agc.Block:
			if isRepair(f.Remedy.Kind) && !f.Remedy.IsApplied() {
				vs = append(vs, violation(BlockUnappliedRepair, fp(i, "/remedy"),
					fmt.Sprintf("blocking finding %q of a block answer carries an unapplied %s remedy; apply it (and answer repaired) or downgrade it to patch, command, delegate or decide",
						f.ID, f.Remedy.Kind)))
			}
		}
	}
	switch r.Verdict {
	case agc.Block:
		if blocking == 0 {
			vs = append(vs, violation(BlockNeedsBlocking, "/verdict", "verdict is block but no finding is blocking"))
		} else if repairable == blocking {
			vs = append(vs, violation(BlockAllRepairable, "/verdict",
				fmt.Sprintf("verdict is block but all %d blocking findings have a rewrite or generate remedy; apply them and answer repaired", blocking)))
		}
	case agc.Repaired:
		if blocking == 0 {
			vs = append(vs, violation(RepairedNeedsBlocking, "/verdict", "verdict is repaired but no finding is blocking: say what was repaired, or answer allow"))
		}
	case agc.Escalate:
		if !hasDecide {
			vs = append(vs, violation(EscalateNeedsDecide, "/verdict", "verdict is escalate but no finding has a decide remedy naming who must choose"))
		}
	}
	return vs
}

func orNone(s string) string {
	if s == "" {
		return "missing"
	}
	return s
}

func appliedWord(r agc.Remedy) string {
	if r.IsApplied() {
		return "(applied)"
	}
	return "(not applied)"
}

// checkFindings enforces §7, §7.1 and §7.2.
func checkFindings(r *agc.Response) []Violation {
	var vs []Violation
	first := map[string]int{}
	for i, f := range r.Findings {
		if j, dup := first[f.ID]; dup {
			vs = append(vs, violation(UniqueIDs, fp(i, "/id"),
				fmt.Sprintf("finding id %q is also the id of /findings/%d", f.ID, j)))
		} else {
			first[f.ID] = i
		}
		vs = append(vs, checkRemedy(i, f.Remedy)...)
		vs = append(vs, checkCheck(r.Gate.Kind, i, f.Check)...)
	}
	return vs
}

func checkRemedy(i int, m agc.Remedy) []Violation {
	at := fp(i, "/remedy")
	missing := func(field, what string) []Violation {
		return []Violation{violation(RemedyPayload, at+"/"+field,
			fmt.Sprintf("a %s remedy must carry %s", m.Kind, what))}
	}
	switch m.Kind {
	case agc.RemedyRewrite:
		if len(m.Input) == 0 {
			return missing("input", "input: the replacement input")
		}
	case agc.RemedyGenerate:
		if strings.TrimSpace(m.Tool) == "" {
			return missing("tool", "tool: the command or generator")
		}
	case agc.RemedyPatch:
		if len(m.Edits) == 0 {
			return missing("edits", "edits: at least one {path, find, replace}")
		}
		var vs []Violation
		for j, e := range m.Edits {
			if e.Path == "" || e.Find == "" {
				vs = append(vs, violation(RemedyPayload, fmt.Sprintf("%s/edits/%d", at, j),
					"a patch edit must name its path and the exact text to find"))
			}
		}
		return vs
	case agc.RemedyCommand:
		if strings.TrimSpace(m.Run) == "" {
			return missing("run", "run: the exact command")
		}
	case agc.RemedyDelegate:
		if strings.TrimSpace(m.Role) == "" {
			return missing("role", "role: who must fix it")
		}
	case agc.RemedyDecide:
		var vs []Violation
		if strings.TrimSpace(m.Ask) == "" {
			vs = append(vs, missing("ask", "ask: the person who must choose")...)
		}
		if len(m.Options) < 2 {
			vs = append(vs, missing("options", fmt.Sprintf("options: at least two choices (has %d)", len(m.Options)))...)
		}
		return vs
	}
	return nil
}

func checkCheck(gateKind string, i int, c agc.Check) []Violation {
	at := fp(i, "/check")
	var vs []Violation
	if gateKind == agc.Deterministic && c.Kind != agc.CheckCommand && c.Kind != agc.CheckPreview {
		vs = append(vs, violation(DeterministicCheck, at+"/kind",
			fmt.Sprintf("a deterministic gate must use a command or preview check, not %s", orNone(c.Kind))))
	}
	switch c.Kind {
	case agc.CheckCommand:
		if strings.TrimSpace(c.Run) == "" {
			vs = append(vs, violation(CheckPayload, at+"/run", "a command check must carry run: a command whose exit status 0 means fixed"))
		}
	case agc.CheckCondition:
		if strings.TrimSpace(c.Condition) == "" {
			vs = append(vs, violation(CheckPayload, at+"/condition", "a condition check must carry condition: what a reader can confirm"))
		}
	}
	return vs
}

// checkCoverage enforces §8.
func checkCoverage(r *agc.Response) []Violation {
	if !r.Coverage.Complete {
		return nil
	}
	classes := map[string]bool{}
	for _, c := range r.Coverage.Classes {
		classes[c] = true
	}
	var vs []Violation
	for i, f := range r.Findings {
		if !classes[f.Class] {
			vs = append(vs, violation(ClassesCoverFindings, fp(i, "/class"),
				fmt.Sprintf("coverage is complete but class %q is not in coverage.classes", f.Class)))
		}
	}
	return vs
}

// checkRounds enforces the §9 rules that one response and its history can
// break.
func checkRounds(r *agc.Response, h history) []Violation {
	var vs []Violation
	inFindings := map[string]bool{}
	for _, f := range r.Findings {
		inFindings[f.ID] = true
	}
	for i, id := range r.Carried {
		if inFindings[id] {
			vs = append(vs, violation(CarriedNotInFindings, fmt.Sprintf("/carried/%d", i),
				fmt.Sprintf("id %q is carried as closed and also raised as a finding in this round", id)))
		}
		if h.known && !h.findings[id] {
			vs = append(vs, violation(CarriedSeen, fmt.Sprintf("/carried/%d", i),
				fmt.Sprintf("id %q is carried but no earlier round raised it%s", id, roundHint(r))))
		}
	}
	if !h.known {
		return vs
	}
	for i, f := range r.Findings {
		switch f.Status {
		case agc.StatusStillOpen:
			if !h.findings[f.ID] {
				vs = append(vs, violation(StillOpenSeen, fp(i, "/status"),
					fmt.Sprintf("finding %q is still-open but no earlier round raised it%s", f.ID, roundHint(r))))
			}
		case agc.StatusRegressed:
			if !h.carried[f.ID] {
				vs = append(vs, violation(RegressedSeenCarried, fp(i, "/status"),
					fmt.Sprintf("finding %q is regressed but no earlier round carried it%s", f.ID, roundHint(r))))
			}
		case agc.StatusNew:
			if h.findings[f.ID] || h.carried[f.ID] {
				vs = append(vs, violation(LintNewSeenBefore, fp(i, "/status"),
					fmt.Sprintf("finding %q is new but an earlier round already raised or carried it", f.ID)))
			}
		}
	}
	return vs
}

func roundHint(r *agc.Response) string {
	if r.Attempt.N == 1 {
		return " (this is round 1)"
	}
	return ""
}

// checkAttempt enforces §10.
func checkAttempt(r *agc.Response) []Violation {
	a := r.Attempt
	var vs []Violation
	if a.N > a.Budget {
		vs = append(vs, violation(NWithinBudget, "/attempt/n",
			fmt.Sprintf("attempt.n is %d but the budget is %d rounds", a.N, a.Budget)))
	}
	if a.N == a.Budget && r.Verdict == agc.Block {
		vs = append(vs, violation(NoBlockAtBudget, "/verdict",
			fmt.Sprintf("round %d of %d spends the budget: the verdict must be escalate, not block", a.N, a.Budget)))
	}
	return vs
}

// bareNumber is a line number with nothing else: 12, 12-14, 12:3, line 12,
// L12.
var bareNumber = regexp.MustCompile(`(?i)^(?:line\s*|l)?\d+(?:[:-]\d+)?$`)

// isLineOnly reports a location that is a bare line number (§7): a number
// as bareNumber has it, or a position with no place before it (":12",
// "#L12-L14"). A place with a position ("a.go:12:5", agc.FormatLocation)
// is not bare: it names the file, and the position says where in it.
func isLineOnly(loc string) bool {
	if n := len(loc); n == 0 || loc[n-1] < '0' || loc[n-1] > '9' {
		return false // every line number ends in a digit
	}
	if bareNumber.MatchString(loc) {
		return true
	}
	place, p := agc.ParseLocation(loc)
	return p.Line > 0 && place == ""
}

// idForm reports whether id has the recommended form of §7,
// <gate.id>/<class>/<location>. A location's position (agc.FormatLocation)
// moves when the file changes, and §7 requires ids that do not: the form
// with the location's place in its stead is the recommended one then, and
// either may be followed by "@" and a stable suffix or "~N", which keep
// the ids of several findings in one place unique.
func idForm(id, gate, class, loc string) (ok bool, want string) {
	if id == gate+"/"+class+"/"+loc {
		return true, id
	}
	place, _ := agc.ParseLocation(loc)
	want = gate + "/" + class + "/" + place
	rest, ok := strings.CutPrefix(id, want)
	return ok && (rest == "" || rest[0] == '@' || rest[0] == '~'), want
}

// lintResponse reports the SHOULD-level advice one response can break.
func lintResponse(r *agc.Response) []Violation {
	var vs []Violation
	if r.Gate.Version == "" {
		vs = append(vs, violation(LintGateVersion, "/gate", "gate.version is missing: a change of the gate's rules cannot be told apart"))
	}
	if len(r.Subject.Scope) == 0 {
		vs = append(vs, violation(LintScope, "/subject", "subject.scope is missing: any change anywhere may void this verdict"))
	}
	for i, f := range r.Findings {
		if isLineOnly(f.Location) {
			vs = append(vs, violation(LintLocationLine, fp(i, "/location"),
				fmt.Sprintf("location %q is a bare line number, which moves when the file changes; name the file, symbol, field or section (a position may follow it: path:12:5)", f.Location)))
		}
		if ok, want := idForm(f.ID, r.Gate.ID, f.Class, f.Location); !ok {
			vs = append(vs, violation(LintIDForm, fp(i, "/id"),
				fmt.Sprintf("id %q is not of the recommended form %q", f.ID, want)))
		}
		if f.Check.Kind == agc.CheckCondition && f.Check.Condition != "" && f.Check.Run == "" {
			vs = append(vs, violation(LintConditionRun, fp(i, "/check"),
				"the condition check names no test or command (run) to confirm it"))
		}
	}
	vs = append(vs, unknownMembers(r)...)
	return vs
}
