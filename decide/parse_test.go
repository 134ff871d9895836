package decide

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		found      bool
		want       Decision
		err        string
	}{
		{"plain", "/agc decide code-review accept: the naming is the team's choice", true,
			Decision{Gate: "code-review", Option: "accept", Reason: "the naming is the team's choice", Line: 1}, ""},
		{"after text, CRLF, blanks", "Looked at it.\r\n   /agc decide  go-lint \t block :  keep it failing  \r\nthanks", true,
			Decision{Gate: "go-lint", Option: "block", Reason: "keep it failing", Line: 2}, ""},
		{"an option of the gate's, with blanks", "/agc decide gate-admission/a1b2 split   the change: two PRs are easier", true,
			Decision{Gate: "gate-admission/a1b2", Option: "split the change", Reason: "two PRs are easier", Line: 1}, ""},
		{"a colon in the reason", "/agc decide code-review accept: see https://example.com: fine", true,
			Decision{Gate: "code-review", Option: "accept", Reason: "see https://example.com: fine", Line: 1}, ""},
		{"no command", "LGTM, merging /agc decide later", false, Decision{}, ""},
		{"quoted", "> /agc decide code-review accept: quoted from above", false, Decision{}, ""},
		{"indented code", "    /agc decide code-review accept: an indented code block", false, Decision{}, ""},
		{"fenced", "```\n/agc decide code-review accept: an example\n```\n", false, Decision{}, ""},
		{"tilde fence, then a real one", "~~~~\n/agc decide a accept: x\n~~~\n~~~~\n/agc decide code-review block: real", true,
			Decision{Gate: "code-review", Option: "block", Reason: "real", Line: 5}, ""},
		{"another word", "/agc decided code-review accept: no", false, Decision{}, ""},
		{"other agc command", "/agc help", false, Decision{}, ""},
		{"upper case is not the command", "/AGC decide code-review accept: x", false, Decision{}, ""},
		{"no gate", "/agc decide", true, Decision{}, "no gate"},
		{"bad gate", "/agc decide Code-Review accept: x", true, Decision{}, "upper case"},
		{"no option", "/agc decide code-review : because", true, Decision{}, "no option"},
		{"no reason", "/agc decide code-review accept", true, Decision{}, "no reason"},
		{"empty reason", "/agc decide code-review accept:   ", true, Decision{}, "no reason"},
		{"two decisions", "/agc decide a accept: x\n/agc decide b block: y", true, Decision{}, "one decision per comment"},
		{"control character", "/agc decide code-review accept: a\x1b[31m red", true, Decision{}, "control character"},
		{"long reason", "/agc decide code-review accept: " + strings.Repeat("x", MaxReason+1), true, Decision{}, "longer than"},
		{"long option", "/agc decide code-review " + strings.Repeat("o", MaxOption+1) + ": x", true, Decision{}, "longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, found, err := Parse(tc.body)
			if found != tc.found {
				t.Fatalf("found %v, want %v (err %v)", found, tc.found, err)
			}
			if tc.err != "" {
				var se *SyntaxError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want a SyntaxError with %q", err, tc.err)
				}
				return
			}
			if err != nil || d != tc.want {
				t.Fatalf("got %+v, %v; want %+v", d, err, tc.want)
			}
		})
	}
}

// FuzzParse: whatever a comment holds, Parse does not panic, and what it
// returns keeps the form: a valid gate id, an option without a colon or a
// control character, a reason of one line, within the limits; parsing the
// decision written back in the form gives the same decision.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"/agc decide code-review accept: the naming is the team's choice",
		"x\r\n/agc decide go-lint block : keep\r\n",
		"```\n/agc decide a accept: x\n```\n/agc decide b  split   it: y",
		"/agc decide a accept: x\n/agc decide b block: y",
		"/agc decide code-review accept: \u202ebidi @team #12 <!-- x -->",
		"> /agc decide a accept: quoted",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		d, found, err := Parse(body)
		if err != nil {
			if !found {
				t.Fatalf("an error without a decision line: %v", err)
			}
			return
		}
		if !found {
			return
		}
		switch {
		case d.Gate == "" || d.Option == "" || d.Reason == "" || d.Line < 1:
			t.Fatalf("an empty part: %+v", d)
		case strings.ContainsAny(d.Option, ":\n\r") || strings.ContainsAny(d.Reason, "\n\r"):
			t.Fatalf("a line break or colon where none may be: %+v", d)
		case strings.IndexFunc(d.Option+d.Reason, isControl) >= 0:
			t.Fatalf("a control character: %+v", d)
		case len([]rune(d.Option)) > MaxOption || len([]rune(d.Reason)) > MaxReason:
			t.Fatalf("too long: %+v", d)
		}
		again, found2, err2 := Parse(Command + " " + d.Gate + " " + d.Option + ": " + d.Reason)
		if err2 != nil || !found2 || again.Gate != d.Gate || again.Option != d.Option || again.Reason != d.Reason {
			t.Fatalf("written back, %+v parses as %+v, %v", d, again, err2)
		}
	})
}
