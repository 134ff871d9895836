// Package extract finds the one fenced code block whose info string is
// "agc" in a judgment agent's final message (runtime bindings, "Judgment
// agents"). It does no I/O.
//
// The message is read as CommonMark 0.31 block structure by goldmark
// (github.com/yuin/goldmark, parser only, no inline parsing), so that a
// fence is a fence exactly where a CommonMark renderer would draw a code
// block:
//
//   - fences are runs of 3 or more backticks or tildes, indented 0 to 3
//     spaces; a backtick fence's info string may not contain backticks;
//   - the first word of the info string (trimmed, backslash escapes and
//     character references decoded) must be exactly "agc", so "```agc",
//     "~~~ agc" and "````agc {.x}" count and "agcx" does not;
//   - a block is closed by a fence of the same character, at least as long,
//     indented 0 to 3 spaces and followed only by spaces or tabs; every
//     content line loses up to as many leading spaces as the opening fence
//     was indented (a tab only partly removed becomes spaces);
//   - anything inside another code block, an indented code block (4 or more
//     spaces) or an HTML block is content, never a fence;
//   - fences inside block quotes ("> ```agc") and list items are found, with
//     the container's markers and indentation removed from every line, as
//     CommonMark does.
//
// Where CommonMark would let an unclosed fence run to the end of the
// document (or of its block quote or list item), Find reports an error of
// kind "unterminated": an agent that forgot the closing fence has not ended
// its message the way the binding asks. goldmark does not record whether a
// fence was closed, so Find watches its fenced code block parser.
//
// Line endings may be LF, CRLF or a lone CR; Block.Content always uses LF.
// Bytes are kept as they are (invalid UTF-8 and NUL included), except that a
// tab only partly removed with the fence's indentation becomes spaces.
//
// goldmark v1 is fed the message with two changes, which source.go makes
// and undoes for content: tabs in the leading run of indentation and
// container markers of each line are expanded to spaces (goldmark v1
// misplaces tab stops there, yuin/goldmark#585), and a line that would nest
// block quotes or list items more than maxNesting (32) deep has its markers
// read as text from there on (goldmark's work per line grows with the
// containers open). Blank content lines narrower than the fence's
// indentation are emptied, as CommonMark does and goldmark does not.
//
// Known differences from the reference implementation (commonmark.js
// 0.31.2, which testdata/commonmark/fences.js drives in
// TestCommonMarkDifferential):
//
//   - block quotes and list items nest at most 32 deep; deeper markers
//     are text;
//   - in about one document in 8,000 of the differential test's random
//     ones, all holding a list item that begins with a blank line ("-"
//     alone on its line, then nested list items), goldmark's list
//     structure, and so which fences there are, differs.
package extract
