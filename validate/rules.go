package validate

import (
	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// Rule describes one rule class. The table is the source of docs/rules.md
// (a test keeps the two in step).
type Rule struct {
	Class    string
	Section  string
	Severity Severity
	Summary  string // one sentence: which rule it is
}

// Rule classes of the [V] rules.
const (
	AllowNoBlocking        = "V6.allow-no-blocking"
	BlockNeedsBlocking     = "V6.block-needs-blocking"
	RepairedNeedsBlocking  = "V6.repaired-needs-blocking"
	RepairedAllApplied     = "V6.repaired-all-applied"
	BlockAllRepairable     = "V6.block-all-repairable"
	BlockUnappliedRepair   = "V6.block-unapplied-repair"
	EscalateNeedsDecide    = "V6.escalate-needs-decide"
	UniqueIDs              = "V7.unique-ids"
	RemedyPayload          = "V7.1.payload"
	DeterministicCheck     = "V7.2.deterministic-check"
	CheckPayload           = "V7.2.payload"
	ClassesCoverFindings   = "V8.classes-cover-findings"
	StillOpenSeen          = "V9.still-open-seen"
	RegressedSeenCarried   = "V9.regressed-seen-carried"
	CarriedSeen            = "V9.carried-seen"
	CarriedNotInFindings   = "V9.carried-not-in-findings"
	ChainOrder             = "V9.chain-order"
	NWithinBudget          = "V10.n-within-budget"
	NoBlockAtBudget        = "V10.no-block-at-budget"
	LintGateVersion        = "L4.gate-version"
	LintScope              = "L5.scope"
	LintLocationLine       = "L7.location-line-number"
	LintIDForm             = "L7.id-form"
	LintConditionRun       = "L7.2.condition-run"
	LintNewSeenBefore      = "L9.new-seen-before"
	LintEscalateEarly      = "L10.escalate-early"
	LintUnknownMember      = "L3.unknown-member"
	ClassSchema            = agc.ClassSchema
	ClassSyntax            = agc.ClassSyntax
	ClassDuplicateKey      = agc.ClassDuplicateKey
	ClassTooDeep           = agc.ClassTooDeep
	ClassTooLarge          = agc.ClassTooLarge
	ClassNoResponse        = agc.ClassNoResponse
	ClassGateID            = agc.ClassGateID
	ClassPairing           = "action.pairing"
	sectionUnknownForClass = "§3"
)

// Rules lists every rule class the validator reports, in documentation order.
var rules = []Rule{
	{ClassSyntax, "§3", SeverityError, "A response is one well-formed JSON document in valid UTF-8."},
	{ClassDuplicateKey, "§3", SeverityError, "No JSON object may name the same member twice; parsers would disagree about its value."},
	{ClassTooDeep, "§3", SeverityError, "Nesting may not exceed the validator's depth limit."},
	{ClassTooLarge, "§3", SeverityError, "The input may not exceed the validator's size limit."},
	{ClassSchema, "§3", SeverityError, "The response must match the AGC JSON Schema: required members, types and enums."},
	{ClassNoResponse, "§3", SeverityError, "An input holds at least one response: an empty file, an empty array or JSON Lines without a line answer nothing, and a gate that answered nothing has not passed."},
	{AllowNoBlocking, "§6", SeverityError, "allow MUST NOT carry a blocking finding."},
	{BlockNeedsBlocking, "§6", SeverityError, "block MUST carry at least one blocking finding."},
	{RepairedNeedsBlocking, "§6", SeverityError, "repaired MUST carry at least one blocking finding."},
	{RepairedAllApplied, "§6", SeverityError, "Under repaired, every blocking finding MUST have a rewrite or generate remedy with applied: true."},
	{BlockAllRepairable, "§6", SeverityError, "block MUST NOT be used when every blocking finding has a rewrite or generate remedy; the gate must apply them and return repaired."},
	{BlockUnappliedRepair, "§6", SeverityError, "A rewrite or generate remedy with applied: false is never valid on a blocking finding of a block answer; downgrade it to patch, command, delegate or decide."},
	{EscalateNeedsDecide, "§6", SeverityError, "escalate MUST carry at least one finding with a decide remedy."},
	{UniqueIDs, "§7", SeverityError, "Finding ids MUST be unique within a response."},
	{RemedyPayload, "§7.1", SeverityError, "Each remedy kind MUST carry its payload (input, tool, edits, run, role, or ask with at least two options)."},
	{DeterministicCheck, "§7.2", SeverityError, "A deterministic gate MUST use a command or preview check."},
	{CheckPayload, "§7.2", SeverityError, "Each check kind MUST carry its payload (run for command, condition for condition)."},
	{ClassesCoverFindings, "§8", SeverityError, "When coverage.complete is true, every finding's class MUST appear in coverage.classes."},
	{StillOpenSeen, "§9", SeverityError, "A still-open finding's id MUST have appeared as a finding in an earlier round of the chain."},
	{RegressedSeenCarried, "§9", SeverityError, "A regressed finding's id MUST have appeared in an earlier round's carried."},
	{CarriedSeen, "§9", SeverityError, "Each carried id MUST have appeared as a finding in an earlier round."},
	{CarriedNotInFindings, "§9", SeverityError, "A carried id MUST NOT appear in the same round's findings."},
	{ChainOrder, "§9", SeverityError, "The rounds of a chain count attempt.n 1, 2, 3… and keep the same gate and subject scope."},
	{NWithinBudget, "§10", SeverityError, "attempt.n MUST NOT exceed attempt.budget."},
	{NoBlockAtBudget, "§10", SeverityError, "At attempt.n == attempt.budget the verdict MUST NOT be block; the gate must escalate."},
	{LintGateVersion, "§4", SeverityLint, "gate.version SHOULD be present: a change of rules is a change of version."},
	{LintScope, "§5", SeverityLint, "subject.scope SHOULD name the paths, fields or units the fingerprint covers."},
	{LintLocationLine, "§7", SeverityLint, "A location SHOULD NOT be a bare line number, which moves when the file changes."},
	{LintIDForm, "§7", SeverityLint, "The RECOMMENDED form of a finding id is <gate.id>/<class>/<location>."},
	{LintConditionRun, "§7.2", SeverityLint, "A condition check SHOULD also carry run, naming a test or command whenever one exists."},
	{LintNewSeenBefore, "§9", SeverityLint, "status new means first seen in this round; an id seen in an earlier round is still-open or regressed."},
	{LintEscalateEarly, "§10", SeverityLint, "A gate SHOULD escalate early when the same class is still-open in two consecutive rounds."},
	{LintUnknownMember, "§3", SeverityLint, "A member the contract does not define is kept but not understood by other tools."},
	{ClassGateID, "§4", SeverityError, "agc-action posts an answer only when its gate id is 1 to 100 bytes of a-z 0-9 . _ - and / between segments that start with a letter or digit, and is not agc-validate; validate reports it, and where agc-action posts answers (the Action, github) no two SARIF tool names become one id."},
	{ClassPairing, "§4", SeverityError, "In the Action, a file paired with a gate (ID=FILE) answers that gate alone, a paired SARIF log holds one run, and a paired gate is answered by its paired files alone."},
}

// RuleFor returns the rule of a class.
func RuleFor(class string) (Rule, bool) {
	for _, r := range rules {
		if r.Class == class {
			return r, true
		}
	}
	return Rule{}, false
}

// violation builds a violation of a rule class from the table.
func violation(class, pointer, msg string) Violation {
	r, ok := RuleFor(class)
	if !ok {
		r = Rule{Class: class, Section: sectionUnknownForClass, Severity: SeverityError}
	}
	return Violation{Place: diag.Place{Pointer: pointer}, Rule: r.Class, Section: r.Section, Severity: r.Severity, Message: msg}
}
