package decide

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agcgate/agc-action/render"
)

// Record is a person's decision as agc-action records it: the member
// "decision" of the binding record (carry.Binding) at the start of the
// gate's check run, so it is read back only from runs of the trusted app
// and carried, with the binding, only while the scoped fingerprint is
// unchanged (docs/rounds.md, "A person decides").
type Record struct {
	By         string `json:"by"`         // the login of who decided
	ByID       int64  `json:"by_id"`      // their user id
	Permission string `json:"permission"` // as GitHub answered: admin, maintain or write
	RoleName   string `json:"role_name,omitzero"`
	Option     string `json:"option"`     // accept, block, or an option the round offered
	Conclusion string `json:"conclusion"` // Conclusion(Option)
	Reason     string `json:"reason"`     // the person's words: data, shown escaped
	Comment    int64  `json:"comment"`    // the comment id the decision is bound to
	// CommentedAt is when the comment was made (RFC 3339, UTC).
	CommentedAt string `json:"commented_at"`
	// Decided is the check run decided on: the gate's latest trusted run
	// on the head when the comment was made.
	Decided int64 `json:"decided_run"`
}

// Check says what is wrong with a record read back, or nil.
func (r Record) Check() error {
	switch {
	case !ValidLogin(r.By) || r.ByID <= 0:
		return fmt.Errorf("decision: by %q (%d)", r.By, r.ByID)
	case !MayDecide(r.Permission):
		return fmt.Errorf("decision: permission %q does not decide", r.Permission)
	case r.Option == "" || utf8.RuneCountInString(r.Option) > MaxOption || r.Option != normal(r.Option):
		return fmt.Errorf("decision: option %q", r.Option)
	case r.Conclusion != Conclusion(r.Option):
		return fmt.Errorf("decision: conclusion %q is not that of option %q", r.Conclusion, r.Option)
	case r.Reason == "" || utf8.RuneCountInString(r.Reason) > MaxReason:
		return errors.New("decision: no reason, or too long a one")
	case r.Comment <= 0 || r.Decided <= 0:
		return fmt.Errorf("decision: comment %d, check run %d", r.Comment, r.Decided)
	}
	if _, err := time.Parse(time.RFC3339, r.CommentedAt); err != nil {
		return fmt.Errorf("decision: commented_at: %w", err)
	}
	return nil
}

// Title is the title of a decision's check run (plain text).
func Title(r Record) string {
	return fmt.Sprintf("decided by %s: %s", r.By, plain(r.Option, 80))
}

// Summary is the Markdown summary of a decision's check run: who decided
// what and why, what it is bound to, and links to the comment and the run
// decided on. Everything a person or a gate wrote goes through
// render.Escape.
func Summary(r Record, gate, head, fingerprint, commentURL, decidedURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### A person decided: %s\n\n", render.Escape(r.Option))
	fmt.Fprintf(&b, "`%s` (permission %s", r.By, r.Permission)
	if r.RoleName != "" && r.RoleName != r.Permission {
		fmt.Fprintf(&b, ", role %s", render.Escape(r.RoleName))
	}
	fmt.Fprintf(&b, ") chose **%s** for gate `%s` on `%s`: the check's conclusion is %s.\n\n", render.Escape(r.Option), gate, head, r.Conclusion)
	fmt.Fprintf(&b, "**Reason:** %s\n\n", render.Escape(r.Reason))
	fmt.Fprintf(&b, "The decision is bound to the scoped fingerprint `%s` of `%s`: it is carried while the content in the gate's scope is unchanged, "+
		"and void after an in-scope change, when the gate judges again from round 1.", fingerprint, head)
	if commentURL != "" {
		fmt.Fprintf(&b, " [The comment](%s).", commentURL)
	}
	if decidedURL != "" {
		fmt.Fprintf(&b, " [The check run decided on](%s).", decidedURL)
	}
	b.WriteString("\n")
	return b.String()
}

// plain makes untrusted text one line of plain text of at most n
// characters, without control or bidirectional characters.
func plain(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if isControl(r) || r == '\t' || render.IsHidden(r) {
			return ' '
		}
		return r
	}, s)
	s = normal(s)
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// A reply starts with a marker naming the comment it answers, then the end
// line, as review comments do; the text after it is agc-action's own words
// with the untrusted parts escaped. Only replies by the Action's own login
// are looked at.
const replyEnd = "<!-- agc:end -->"

var replyMarker = regexp.MustCompile(`^<!-- agc:decision-reply comment=([0-9]{1,19}) -->\r?$`)

// Reply is the body of the one reply to a comment that is not taken as a
// decision.
func Reply(comment int64, why string) string {
	return fmt.Sprintf("<!-- agc:decision-reply comment=%d -->\n%s\n"+
		"This comment is not taken as a decision: %s.\n\n"+
		"A decision is a new comment, not edited afterwards, by a person with write access to the repository, with one line of the form "+
		"`%s` (see docs/rounds.md, \"A person decides\").\n", comment, replyEnd, render.Escape(why), Usage)
}

// RepliedTo returns the comment a reply body answers, if it is one.
func RepliedTo(body string) (int64, bool) {
	first, rest, ok := strings.Cut(body, "\n")
	if !ok || !strings.HasPrefix(rest, replyEnd) {
		return 0, false
	}
	m := replyMarker.FindStringSubmatch(first)
	if m == nil {
		return 0, false
	}
	id, err := strconv.ParseInt(m[1], 10, 64)
	return id, err == nil
}
