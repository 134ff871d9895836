package bridge

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json/jsontext"
)

// Agent-protocol plan_status values (agent-protocol, "State Machine").
const (
	APInProgress      = "IN_PROGRESS"
	APApprovalRequest = "APPROVAL_REQUEST"
	APComplete        = "COMPLETE"
	APBlocked         = "BLOCKED"
	APNeedsInput      = "NEEDS_INPUT"
)

// Classes of the findings FromAgentProtocol reports.
const (
	ClassVerificationMissing = "verification-missing"
	ClassVerificationFailed  = "verification-failed"
	ClassBlocked             = "blocked"
	ClassNeedsInput          = "needs-input"
	ClassApprovalRequest     = "approval-request"
)

// apBudget: the protocol allows a retry or verify-fail loop of at most 2
// more rounds after the first ("IN_PROGRESS -> IN_PROGRESS, max 2").
const apBudget = 3

var agentIDForm = regexp.MustCompile(`^a[0-9a-f]{5,}$`)

// apContract is the part of a json:contract block the mapping reads.
type apContract struct {
	root, status, evidence *object
	planStatus, agentID    string
	nextAction             string
	pendingSteps           []string
	filesChecked           []string
	commandsRun            []string
	openGaps               []string
	verification           *object
	approval               *object
}

// FromAgentProtocol reads the one fenced json:contract block that ends an
// agent's message (agent-protocol, "Response Contract") and answers as the
// judgment gate the agent is, with agent_id as the gate's id. IN_PROGRESS
// is not a verdict and is an error. docs/bridges.md has the mapping.
func FromAgentProtocol(file string, message []byte) (*agc.Response, []diag.Lint, error) {
	if len(message) > maxInput {
		return nil, nil, diag.Errorf(diag.Place{File: file}, "larger than the limit of %d bytes", maxInput)
	}
	b, lints, err := findContract(file, message)
	if err != nil {
		return nil, nil, err
	}
	d := &doc{file: file, line: b.start}
	root, err := d.parse([]byte(b.content), "the json:contract block")
	if err != nil {
		return nil, nil, err
	}
	c, err := readContract(root)
	if err != nil {
		return nil, nil, err
	}
	lints = append(lints, contractLint(c)...)
	r, err := apResponse(c, b.content)
	if err != nil {
		return nil, nil, err
	}
	return r, lints, nil
}

// apResponse maps a read contract (docs/bridges.md, "agent-protocol").
func apResponse(c *apContract, content string) (*agc.Response, error) {
	subj := agc.Subject{Kind: agc.SubjectSession, Fingerprint: sha256Of([]byte(content)), Scope: nonEmpty(c.filesChecked)}
	var note extensions
	note.addString(NoteFingerprintOf, "the bytes of the json:contract block; agent-protocol carries no hash of the work it reports on")
	subj.Unknown = note.value()
	r := newResponse(agc.Gate{ID: c.agentID, Kind: agc.Judgment}, subj, apBudget)
	r.Coverage.Classes = []string{ClassVerificationMissing, ClassVerificationFailed, ClassBlocked, ClassNeedsInput, ClassApprovalRequest}
	r.Coverage.NotChecked = nonEmpty(c.openGaps)
	if err := apFindings(r, c); err != nil {
		return nil, err
	}
	setVerdict(r)
	r.Unknown = apKept(c).value()
	return r, nil
}

func apFindings(r *agc.Response, c *apContract) error {
	switch c.planStatus {
	case APComplete:
		apComplete(r, c)
	case APBlocked:
		add(r, apStuck(c, ClassBlocked, "cannot proceed and has escalated", "remove the blocker"))
	case APNeedsInput:
		add(r, apStuck(c, ClassNeedsInput, "is missing information only the user has", "give the agent the information"))
	case APApprovalRequest:
		f, err := apApproval(c)
		if err != nil {
			return err
		}
		add(r, f)
	}
	return nil
}

// apComplete: COMPLETE needs a passing verification (the Verification Gate).
func apComplete(r *agc.Response, c *apContract) {
	if c.verification == nil {
		add(r, agc.Finding{
			Class: ClassVerificationMissing, Location: "evidence_report.verification",
			What:     "plan_status is COMPLETE, but evidence_report carries no verification object.",
			Why:      "agent-protocol, Verification Gate: an agent cannot set plan_status COMPLETE without a verification object.",
			Severity: agc.Blocking,
			Remedy:   delegate(c.agentID, "agent-protocol, Verification Gate"),
			Check:    apCheck(c, "evidence_report.verification is an object whose result is \"pass\""),
		})
		return
	}
	if res, _ := c.verification.str("result", true); res == "pass" {
		return
	}
	checks, _ := c.verification.strs("checks")
	details, _ := c.verification.str("details", false)
	what := "plan_status is COMPLETE, but verification.result is \"fail\""
	if details != "" {
		what += ": " + details
	}
	cond := "verification.result is \"pass\""
	if len(checks) > 0 {
		cond = "these checks pass: " + strings.Join(checks, "; ")
	}
	add(r, agc.Finding{
		Class: ClassVerificationFailed, Location: "evidence_report.verification",
		What:     what,
		Why:      "agent-protocol, Verification Gate: when verification fails the agent loops back to EXECUTE and does not complete.",
		Severity: agc.Blocking,
		Remedy:   delegate(c.agentID, "agent-protocol, Universal Execution Loop: loop back to EXECUTE"),
		Check:    apCheck(c, cond),
	})
}

// apCheck is a condition check that runs the agent's own commands.
func apCheck(c *apContract, condition string) agc.Check {
	return agc.Check{Kind: agc.CheckCondition, Condition: condition, Run: strings.Join(c.commandsRun, " && ")}
}

// apStuck maps BLOCKED and NEEDS_INPUT to a decision for the user.
func apStuck(c *apContract, class, state, act string) agc.Finding {
	what := fmt.Sprintf("The agent reports %s: it %s.", c.planStatus, state)
	resume := act + " and let the agent resume"
	if c.nextAction != "" {
		what = fmt.Sprintf("The agent reports %s: it %s; next action: %s.", c.planStatus, state, c.nextAction)
		resume = fmt.Sprintf("%s (%s) and let the agent resume", act, c.nextAction)
	}
	return agc.Finding{
		Class: class, Location: "agent_status.plan_status",
		What:     what,
		Why:      fmt.Sprintf("agent-protocol, State Machine: %s stops the agent until the user acts.", c.planStatus),
		Severity: agc.Blocking,
		Remedy:   decide("the user", resume, "stop the task"),
		Check:    agc.Check{Kind: agc.CheckCondition, Condition: fmt.Sprintf("the agent's next json:contract no longer reports %s", c.planStatus)},
	}
}

// apApproval maps APPROVAL_REQUEST to a decision that carries the exact
// operation, scope, risk and rollback.
func apApproval(c *apContract) (agc.Finding, error) {
	a := c.approval
	if a == nil {
		return agc.Finding{}, c.root.d.errAt("/approval_request", "plan_status is APPROVAL_REQUEST, but approval_request is missing or null; agent-protocol requires it")
	}
	var v [4]string
	for i, name := range []string{"operation", "exact_content", "risk_level", "rollback"} {
		s, err := a.str(name, true)
		if err != nil {
			return agc.Finding{}, err
		}
		v[i] = s
	}
	scope, err := scopeText(a)
	if err != nil {
		return agc.Finding{}, err
	}
	return agc.Finding{
		Class: ClassApprovalRequest, Location: "approval_request",
		What:     fmt.Sprintf("The agent asks approval to %s, exactly: %s; scope: %s; risk: %s; rollback: %s.", v[0], v[1], scope, v[2], v[3]),
		Why:      "agent-protocol, State Machine: a hook blocked this mutative command, and only the user can approve it.",
		Severity: agc.Blocking,
		Remedy:   decide("the user", "approve exactly: "+v[1], "deny: "+v[0]),
		Check:    agc.Check{Kind: agc.CheckCondition, Condition: "the user's answer names this exact operation and content"},
	}, nil
}

// scopeText reads approval_request.scope, a string or an array of strings.
func scopeText(a *object) (string, error) {
	v, ok := a.get("scope")
	if !ok {
		return "", a.d.errAt(a.at("scope"), "member \"scope\" is required (a string or an array of strings)")
	}
	if v.Kind() == '[' {
		ss, err := a.strs("scope")
		return strings.Join(ss, ", "), err
	}
	return a.str("scope", true)
}

// apKept keeps every member of the block under "agent-protocol/…" names,
// except the two whose whole meaning is in an AGC field.
func apKept(c *apContract) extensions {
	var x extensions
	for _, m := range c.root.members {
		var v jsontext.Value
		switch m.name {
		case "agent_status":
			v = c.status.rest("plan_status", "agent_id")
		case "evidence_report":
			if c.evidence != nil {
				v = c.evidence.rest("files_checked", "open_gaps")
			}
		default:
			v = m.value
		}
		x.add("agent-protocol/"+m.name, v)
	}
	return x
}
