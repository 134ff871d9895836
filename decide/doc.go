// Package decide is "a person decides" (issue 12, item 5; docs/rounds.md,
// "A person decides"): the form of a decision comment and its parser, who
// may decide and which comments count, the options a round offers, and
// the record of a decision that agc-action writes into the binding record
// of the gate's check run (carry.Binding.Decision), so that a decision
// holds as a verdict does: carried while the content in scope is
// unchanged, void after an in-scope change.
//
// A comment's text is data: it is parsed, never executed, and shown only
// through render.Escape (and internal/logsafe in the log). The package is
// pure: it judges the facts it is given (the event's comment, GitHub's
// answer about the commenter's permission, the round decided on); the
// Action reads the event, asks GitHub and posts.
package decide
