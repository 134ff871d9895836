package bridge

import (
	"fmt"

	"github.com/agcgate/agc-action/diag"
)

// readContract reads the members of a json:contract block the mapping
// uses, with their types checked; everything else stays in the object.
func readContract(root *object) (*apContract, error) {
	c := &apContract{root: root}
	var err error
	if c.status, err = root.obj("agent_status"); err != nil {
		return nil, err
	}
	if c.status == nil {
		return nil, root.d.errAt("/agent_status", "member \"agent_status\" is required (an object)")
	}
	if err := readStatus(c); err != nil {
		return nil, err
	}
	if c.evidence, err = root.obj("evidence_report"); err != nil {
		return nil, err
	}
	if c.evidence != nil {
		if err := readEvidence(c); err != nil {
			return nil, err
		}
	}
	c.approval, err = root.obj("approval_request")
	return c, err
}

func readStatus(c *apContract) error {
	s := c.status
	var err error
	if c.planStatus, err = s.str("plan_status", true); err != nil {
		return err
	}
	switch c.planStatus {
	case APComplete, APBlocked, APNeedsInput, APApprovalRequest:
	case APInProgress:
		return s.d.errAt(s.at("plan_status"), "plan_status is IN_PROGRESS: the agent is still working, and an unfinished increment is not a verdict; convert its final message")
	default:
		return s.d.errAt(s.at("plan_status"), "unknown plan_status %q: agent-protocol has IN_PROGRESS, APPROVAL_REQUEST, COMPLETE, BLOCKED and NEEDS_INPUT", c.planStatus)
	}
	if c.agentID, err = s.str("agent_id", true); err != nil {
		return err
	}
	if c.agentID == "" {
		return s.d.errAt(s.at("agent_id"), "agent_id is empty; it names the gate")
	}
	if c.nextAction, err = s.str("next_action", false); err != nil {
		return err
	}
	c.pendingSteps, err = s.strs("pending_steps")
	return err
}

func readEvidence(c *apContract) error {
	e := c.evidence
	var err error
	if c.filesChecked, err = e.strs("files_checked"); err != nil {
		return err
	}
	if c.commandsRun, err = e.strs("commands_run"); err != nil {
		return err
	}
	if c.openGaps, err = e.strs("open_gaps"); err != nil {
		return err
	}
	if c.verification, err = e.obj("verification"); err != nil || c.verification == nil {
		return err
	}
	if _, err := c.verification.strs("checks"); err != nil {
		return err
	}
	res, err := c.verification.str("result", true)
	if err == nil && res != "pass" && res != "fail" {
		err = e.d.errAt(c.verification.at("result"), "verification.result must be \"pass\" or \"fail\", not %q", res)
	}
	return err
}

// contractLint reports departures from the protocol that still convert.
func contractLint(c *apContract) []diag.Lint {
	var ls []diag.Lint
	d := c.root.d
	if !agentIDForm.MatchString(c.agentID) {
		ls = append(ls, d.lintAt("/agent_status/agent_id", fmt.Sprintf("agent_id %q is not \"a\" followed by 5 or more hex digits", c.agentID)))
	}
	if c.planStatus == APComplete && len(c.pendingSteps) > 0 {
		ls = append(ls, d.lintAt("/agent_status/pending_steps", "COMPLETE with pending steps; agent-protocol asks for [] when done"))
	}
	if c.planStatus != APComplete && c.verification != nil {
		ls = append(ls, d.lintAt("/evidence_report/verification", "verification is given although plan_status is not COMPLETE; agent-protocol asks for null"))
	}
	return ls
}
