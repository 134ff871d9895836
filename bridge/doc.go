// Package bridge converts the answers of neighbouring gate systems into AGC
// responses, and AGC responses into the hook JSON of Claude Code:
//
//   - FromAgentProtocol: the final fenced json:contract block of an agent's
//     message (agent-protocol);
//   - FromReceipt: an action-admission Receipt, as its as_dict() JSON
//     (gate-action-admission);
//   - FromFourgate: a Fourgate verifier result or outcome verdict;
//   - ClaudePreToolUse, ClaudePostToolUse: the JSON a Claude Code hook
//     prints (agc-runtime-bindings, "Claude Code").
//
// Every mapping is written down, row by row with its reason, in
// docs/bridges.md. Two rules hold throughout: nothing is reported as
// enforced that the source did not enforce, and nothing the source said is
// dropped (members without an AGC field are kept under namespaced members
// such as "agent-protocol/evidence_report").
//
// The package does no I/O: callers hand it bytes and a name for messages.
package bridge
