// Package rounds owns the chain of rounds of a gate on a pull request
// (docs/rounds.md): reading it back from the gate's trusted check runs
// agc/<gate> on the pull request's earlier heads (Read), and making the
// next round of it from a gate's answer (Follow): numbering the rounds of
// gates that do not count them (attempt, each finding's status, carried),
// checking those of gates that do (validate.NextRound), and escalating to
// a person at the budget (§10).
//
// It does no I/O of its own: GitHub is reached through the Reader it is
// given, which deliver.CarryRuns implements, and it trusts exactly the runs
// carrying trusts (carry.LatestTrusted).
package rounds
