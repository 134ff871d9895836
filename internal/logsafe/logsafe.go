// Package logsafe keeps untrusted text from becoming a workflow command.
//
// The GitHub Actions runner reads every line a step prints, on standard
// output and standard error alike (a line ends at "\n" or "\r"):
// `::name::…` at the start of a line (after any Unicode white space) and,
// in the legacy form, `##[name]…` anywhere in a line are commands
// (`::error`, `::add-mask`, `::stop-commands` …). Repository paths (git
// allows line breaks in file names), SARIF rule ids and an agent's answer
// are written by the judged party, so no line agc-sarif prints may let them
// choose its start or hold `##[`.
//
// The rule every command follows:
//
//   - Untrusted values inside a line of ours (a path in the carry log, a
//     message in a diagnostic, an id in a report line) are escaped in
//     place: Name for paths and ids (as they are when plain, else quoted as
//     %q would), Quote for values always quoted, Line for free text. Each
//     result is one line that starts no command and holds no `##[`, so the
//     line stays what it was (problem matchers still read diagnostics).
//   - JSON printed for a program (validate --format json|agc|sarif,
//     convert to AGC, SARIF or a hook format, carry's response, extract's
//     block, the hook's answer, request bodies in a dry run) goes through
//     JSON, which writes `##[` as `##\u005b`: the same JSON value to every
//     decoder, so pipes keep working, and no command to the runner, since
//     valid JSON has no raw line break inside a string and no `::` outside
//     one. This is done whether or not the runner reads the output.
//   - Multi-line text for people that holds untrusted text as it is
//     (render, convert --to text|markdown, an extract block that is not
//     JSON, a gate's own stderr passed on by hook, a job summary printed
//     instead of written) is written through Block: under GitHub Actions
//     (InActions) between `::stop-commands::TOKEN` and `::TOKEN::`, with a
//     cryptographically random token that does not occur in the text, in
//     any case. The runner ignores every command inside, our own too, so
//     our `::error` lines are written outside the block. Outside GitHub
//     Actions the text is written as it is.
//
// Left as it is: our own workflow commands (::error, ::warning and
// annotations, written by go-githubactions, which escapes "\r", "\n" and
// "%" in the message and ":" and "," in properties too), since the runner
// takes a line that is a registered "::" command as that command and
// never looks for "##[" in it; and files written with -o, which are not
// the log.
//
// It does no I/O beyond the io.Writer it is given.
package logsafe

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// legacy is the opening of the runner's legacy command form.
const legacy = "##["

// Quote returns s as a Go string literal, as %q would, with every "##["
// written as `#\x23[`: the same string to anyone who unquotes it, no
// command to the runner.
func Quote(s string) string {
	return breakLegacy(strconv.Quote(s))
}

// Name returns a path or an identifier for a line of the log: as it is
// when it is plain (printable, no "::" or "##[", no blank or quote at its
// start, no blank at its end), else quoted as Quote does, as git quotes
// unusual paths. The result is safe anywhere in a line, its start too.
func Name(s string) string {
	if plain(s) {
		return s
	}
	return Quote(s)
}

func plain(s string) bool {
	if s == "" || s[0] == '"' || s[0] == ' ' || s[len(s)-1] == ' ' ||
		strings.Contains(s, "::") || strings.Contains(s, legacy) || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// Line returns s for printing inside a line without quotes: control
// characters (line breaks included) are escaped as in a Go literal, and
// "##[" is broken as in Quote. Printable text is unchanged. A result that
// would start a command on a line of its own ("::" after blanks) is
// quoted as Quote does, so Line is safe at the start of a line too.
func Line(s string) string {
	if startsCommand(s) {
		return Quote(s)
	}
	if !needsEscape(s) {
		return s
	}
	q := strconv.Quote(s)
	q = q[1 : len(q)-1]
	// strconv.Quote also escapes the double quote and the backslash; keep
	// them as written, since the result is not a literal.
	q = strings.ReplaceAll(q, `\"`, `"`)
	return breakLegacy(unescapeBackslash(q))
}

// startsCommand: s begins, after the white space the runner trims
// (C#'s TrimStart, Unicode white space), with "::".
func startsCommand(s string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::")
}

func needsEscape(s string) bool {
	if strings.Contains(s, legacy) {
		return true
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || r == '\ufffd' {
			return true
		}
	}
	return false
}

// unescapeBackslash turns the `\\` that strconv.Quote wrote for a
// backslash back into one backslash, leaving the escapes it made.
func unescapeBackslash(q string) string {
	if !strings.Contains(q, `\\`) {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '\\' && i+1 < len(q) && q[i+1] == '\\' {
			b.WriteByte('\\')
			i++
			continue
		}
		b.WriteByte(q[i])
		if q[i] == '\\' && i+1 < len(q) {
			i++
			b.WriteByte(q[i])
		}
	}
	return b.String()
}

func breakLegacy(s string) string {
	return strings.ReplaceAll(s, legacy, `#\x23[`)
}

// JSON returns b, a sequence of JSON values (one document, JSON Lines, or
// none), with every "##[" written as `##\u005b`, and whether b is such a
// sequence. When it is, the result decodes to the same values and no line
// of it is a command: outside strings JSON has no "::" and no "#", and a
// string holds no raw line break. When it is not, b is returned as it is
// and the caller must not print it raw (Block it, or refuse it).
func JSON(b []byte) ([]byte, bool) {
	if !validJSON(b) {
		return b, false
	}
	if !bytes.Contains(b, []byte(legacy)) {
		return b, true
	}
	// In valid JSON "##[" lies inside a string, where "[" may be written
	// as its \u escape; "#" is never part of an escape.
	return bytes.ReplaceAll(b, []byte(legacy), []byte(`##\u005b`)), true
}

func validJSON(b []byte) bool {
	d := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for {
		switch err := d.SkipValue(); err {
		case nil:
		case io.EOF:
			return true
		default:
			return false
		}
	}
}

// Lines returns text with every line made safe as Line makes it, the
// line breaks ("\n") kept: for multi-line text that is printed escaped
// rather than wrapped, such as a request dump's head. A "\r" is escaped.
func Lines(text []byte) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	var b strings.Builder
	b.Grow(len(text))
	for _, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		b.WriteString(Line(body))
		if nl {
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// Block writes text to w. When commands is true (the step runs under
// GitHub Actions), the text is wrapped in ::stop-commands::TOKEN …
// ::TOKEN:: so that nothing in it is taken as a command; the wrapped text
// always ends with a line break so the resume line stands alone. Empty
// text writes nothing.
func Block(w io.Writer, commands bool, text []byte) error {
	if !commands || len(text) == 0 {
		_, err := w.Write(text)
		return err
	}
	tok, err := token(text)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.Grow(len(text) + 2*len(tok) + 24)
	b.WriteString("::stop-commands::" + tok + "\n")
	b.Write(text)
	if text[len(text)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("::" + tok + "::\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// token returns 32 random hex digits that do not occur in text, in any
// case: the runner compares the resume token ignoring case.
func token(text []byte) (string, error) {
	lower := bytes.ToLower(text)
	var raw [16]byte
	for {
		if _, err := rand.Read(raw[:]); err != nil {
			return "", err
		}
		tok := hex.EncodeToString(raw[:])
		if !bytes.Contains(lower, []byte(tok)) {
			return tok, nil
		}
	}
}

// InActions tells from the environment whether the runner reads the
// output (GITHUB_ACTIONS=true).
func InActions(getenv func(string) string) bool {
	return getenv != nil && getenv("GITHUB_ACTIONS") == "true"
}
