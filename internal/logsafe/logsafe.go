// Package logsafe keeps untrusted text from becoming a workflow command.
//
// The GitHub Actions runner reads every line a step prints: `::name::…` at
// the start of a line (after blanks) and, in the legacy form, `##[name]…`
// anywhere in a line that does not start with `::` are commands
// (`::error`, `::add-mask`, `::stop-commands` …). Repository paths (git
// allows line breaks in file names), SARIF rule ids and an agent's answer
// are written by the judged party, so no line agc-sarif prints may let them
// choose its start or hold `##[`.
//
// Two tools, for two kinds of text:
//   - Quote and Line, for untrusted values inside a line of ours: line
//     breaks and other control characters are escaped, and `##[` is broken
//     so the runner does not see it;
//   - Block, for untrusted multi-line text printed as it is (a rendered
//     answer, a request dump): under GitHub Actions it is written between
//     `::stop-commands::TOKEN` and `::TOKEN::`, with a cryptographically
//     random token that does not occur in the text. The runner ignores every
//     command inside, our own too, so `::error` lines of ours are written
//     outside the block.
//
// It does no I/O beyond the io.Writer it is given.
package logsafe

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
)

// legacy is the opening of the runner's legacy command form.
const legacy = "##["

// Quote returns s as a Go string literal, as %q would, with every "##["
// written as `#\x23[`: the same string to anyone who unquotes it, no
// command to the runner.
func Quote(s string) string {
	return breakLegacy(strconv.Quote(s))
}

// Line returns s for printing inside a line without quotes: control
// characters (line breaks included) are escaped as in a Go literal, and
// "##[" is broken as in Quote. Printable text is unchanged.
func Line(s string) string {
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

// Block writes text to w. When commands is true (the step runs under
// GitHub Actions), the text is wrapped in ::stop-commands::TOKEN …
// ::TOKEN:: so that nothing in it is taken as a command; the wrapped text
// always ends with a line break so the resume line stands alone.
func Block(w io.Writer, commands bool, text []byte) error {
	if !commands {
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
	if len(text) > 0 && text[len(text)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("::" + tok + "::\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// token returns 32 random hex digits that do not occur in text.
func token(text []byte) (string, error) {
	var raw [16]byte
	for {
		if _, err := rand.Read(raw[:]); err != nil {
			return "", err
		}
		tok := hex.EncodeToString(raw[:])
		if !strings.Contains(string(text), tok) {
			return tok, nil
		}
	}
}

// InActions tells from the environment whether the runner reads the
// output (GITHUB_ACTIONS=true).
func InActions(getenv func(string) string) bool {
	return getenv != nil && getenv("GITHUB_ACTIONS") == "true"
}
