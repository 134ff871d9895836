// Package extract finds the one fenced code block whose info string is
// "agc" in a judgment agent's final message (runtime bindings, "Judgment
// agents"). It does no I/O.
//
// The message is read as CommonMark 0.31 block structure, so that a fence is
// a fence exactly where a CommonMark renderer would draw a code block:
//
//   - fences are runs of 3 or more backticks or tildes, indented 0 to 3
//     spaces; a backtick fence's info string may not contain backticks;
//   - the first word of the info string (trimmed, backslash escapes and
//     numeric character references decoded) must be exactly "agc", so
//     "```agc", "~~~ agc" and "````agc {.x}" count and "agcx" does not;
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
// its message the way the binding asks.
//
// Line endings may be LF, CRLF or a lone CR; Block.Content always uses LF.
// Bytes are kept as they are (invalid UTF-8 and NUL included), except that a
// tab only partly removed with the fence's indentation becomes spaces.
//
// Known differences from the reference implementation (commonmark.js
// 0.31.2, which testdata/commonmark/fences.js drives in a differential test
// behind the "commonmark" build tag):
//
//   - block quotes and list items nest at most 128 deep; deeper markers
//     are text;
//   - named character references ("&Tab;") in an info string are left as
//     they are;
//   - a line holding only a closing </pre>, </script>, </style> or
//     </textarea> tag does not start an HTML block, as the specification
//     says (commonmark.js starts one).
package extract
