package decide

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agcgate/agc-action/agc"
)

// The two options every round offers.
const (
	Accept = "accept" // accept as is: the check passes
	Block  = "block"  // keep blocking: the check fails
)

// Comment is what the issue_comment event says of the comment.
type Comment struct {
	ID       int64
	Action   string // created, edited, deleted
	Login    string // the author
	UserID   int64
	UserType string // User, Bot, Organization
	Created  time.Time
	Updated  time.Time
	Body     string
}

// Ignored says why a comment does not count as a decision: the Action
// replies with Why, once.
type Ignored struct{ Why string }

// CheckComment says why the comment itself cannot be a decision, or nil:
// an edit (the edited event, or updated_at after created_at) does not
// count, nor does a bot's comment. A decision is bound to its comment id
// and the text it had when it was made.
func CheckComment(c Comment) *Ignored {
	switch {
	case c.Action != "created":
		return &Ignored{fmt.Sprintf("the comment was %s after it was made; an edited comment does not count as a decision "+
			"(a decision it made before stands as recorded in the check run): write a new comment to decide", c.Action)}
	case c.Updated.After(c.Created):
		return &Ignored{fmt.Sprintf("the comment was edited after it was made (updated %s, created %s); an edited comment does not count as a decision: "+
			"write a new comment to decide", c.Updated.UTC().Format(time.RFC3339), c.Created.UTC().Format(time.RFC3339))}
	case c.UserType == "Bot" || strings.HasSuffix(c.Login, "[bot]"):
		return &Ignored{fmt.Sprintf("it was written by the bot %s: only a person decides", c.Login)}
	case !ValidLogin(c.Login) || c.UserID <= 0 || c.ID <= 0:
		return &Ignored{"the event does not name the comment or its author"}
	}
	return nil
}

// MayDecide reports whether a permission GitHub gives for a user
// (GET /repos/{o}/{r}/collaborators/{username}/permission, its
// "permission") lets the user decide: write access or more.
func MayDecide(permission string) bool {
	return slices.Contains([]string{"admin", "maintain", "write"}, permission)
}

// CheckPermission says why a user with this permission and role may not
// decide, or nil.
func CheckPermission(login, permission, role string) *Ignored {
	if MayDecide(permission) {
		return nil
	}
	if permission == "" {
		permission = "none"
	}
	r := ""
	if role != "" && role != permission {
		r = ", role " + role
	}
	return &Ignored{fmt.Sprintf("%s has %s access to this repository%s; deciding needs write access", login, permission, r)}
}

// Options returns the options a round offers: accept, block, then every
// option its findings' decide remedies list, in order, each once.
func Options(r *agc.Response) []string {
	out := []string{Accept, Block}
	if r == nil {
		return out
	}
	for _, f := range r.Findings {
		if f.Remedy.Kind != agc.RemedyDecide {
			continue
		}
		for _, o := range f.Remedy.Options {
			if o = normal(o); o != "" && !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// Choose matches the option of a decision with those the round offers
// (Options; blanks inside are compared as one space) and returns it.
func Choose(option string, r *agc.Response) (string, *Ignored) {
	offered := Options(r)
	if o := normal(option); slices.Contains(offered, o) {
		return o, nil
	}
	return "", &Ignored{fmt.Sprintf("the option %q is not one the round offers: %s", option, strings.Join(quoteAll(offered), ", "))}
}

// AcceptOptions are the options that accept as is: the word, and the
// option the Action's own escalation offers (rounds.OptionAccept, "accept
// as is"; a test in internal/action keeps the two in step).
var AcceptOptions = []string{Accept, "accept as is"}

// Conclusion is the check run conclusion of a decision for option: only
// accepting as is (AcceptOptions) lets the check pass; block, "keep
// blocking" and any other option of the gate's own keep it failing, with
// the person's choice recorded for the next round.
func Conclusion(option string) string {
	if slices.Contains(AcceptOptions, normal(option)) {
		return "success"
	}
	return "failure"
}

func normal(s string) string { return strings.Join(strings.Fields(s), " ") }

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// ValidLogin reports whether s is a GitHub login as GitHub makes them
// (letters, digits, single hyphens, at most 39 characters), or a bot's
// with "[bot]" after it: the only form that reaches a request path or a
// record.
func ValidLogin(s string) bool {
	s = strings.TrimSuffix(s, "[bot]")
	if s == "" || len(s) > 39 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
