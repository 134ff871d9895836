// Package render shows an AGC response to people, as spec §12 asks: each
// finding as what, why, the remedy and the check, in that order, with every
// word of content taken from the object itself.
//
// Two formats share one model of a finding (model.go):
//
//   - Text is plain and aligned, for terminals, annotations and hook reasons.
//     Control characters that a terminal would act on are shown as \uXXXX.
//   - Markdown is GitHub-flavoured, for PR comments and job summaries.
//     Everything that came from the response is made inert (Escape, code
//     spans and fences longer than any backtick run in their content), so a
//     response cannot inject HTML, mentions, references, links, images,
//     structure, or a hidden "<!--" marker comment.
//
// The package does no I/O beyond the io.Writer it is given.
package render
