package decide

import (
	"strings"
	"testing"
	"time"

	"github.com/agcgate/agc-action/agc"
)

func TestCheckComment(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ok := Comment{ID: 7, Action: "created", Login: "octocat", UserID: 1, UserType: "User", Created: at, Updated: at}
	if why := CheckComment(ok); why != nil {
		t.Fatalf("a person's new comment: %v", why)
	}
	for _, tc := range []struct {
		name string
		edit func(*Comment)
		want string
	}{
		{"edited event", func(c *Comment) { c.Action = "edited" }, "edited after it was made"},
		{"updated after created", func(c *Comment) { c.Updated = at.Add(time.Second) }, "edited after it was made"},
		{"a bot", func(c *Comment) { c.UserType, c.Login = "Bot", "renovate[bot]" }, "only a person decides"},
		{"a bot's name", func(c *Comment) { c.Login = "helper[bot]" }, "only a person decides"},
		{"a login no one has", func(c *Comment) { c.Login = "a/../b" }, "does not name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			if why := CheckComment(c); why == nil || !strings.Contains(why.Why, tc.want) {
				t.Fatalf("got %v, want %q", why, tc.want)
			}
		})
	}
}

func TestPermission(t *testing.T) {
	for perm, want := range map[string]bool{"admin": true, "maintain": true, "write": true, "triage": false, "read": false, "none": false, "": false} {
		if MayDecide(perm) != want || (CheckPermission("octocat", perm, "") == nil) != want {
			t.Errorf("permission %q: may decide %v, want %v", perm, MayDecide(perm), want)
		}
	}
	if why := CheckPermission("octocat", "read", "triage"); why == nil || !strings.Contains(why.Why, "read access to this repository, role triage") {
		t.Errorf("reader: %v", why)
	}
}

func TestChoose(t *testing.T) {
	r := &agc.Response{Findings: []agc.Finding{
		{Remedy: agc.Remedy{Kind: agc.RemedyDelegate, Role: "author"}},
		{Remedy: agc.Remedy{Kind: agc.RemedyDecide, Ask: "@org/leads", Options: []string{"accept", "block", "split  the change", "", "accept as is", "keep blocking"}}},
	}}
	if got := Options(r); strings.Join(got, "|") != "accept|block|split the change|accept as is|keep blocking" {
		t.Fatalf("options %q", got)
	}
	for option, want := range map[string]string{"accept": "success", "block": "failure", "split the change": "failure", "split   the  change": "failure",
		"accept as is": "success", "keep blocking": "failure"} {
		o, why := Choose(option, r)
		if why != nil || Conclusion(o) != want {
			t.Errorf("%q: %q %v, conclusion %s, want %s", option, o, why, Conclusion(o), want)
		}
	}
	if _, why := Choose("merge anyway", r); why == nil || !strings.Contains(why.Why, `"accept", "block", "split the change", "accept as is", "keep blocking"`) {
		t.Errorf("an option not offered: %v", why)
	}
	if _, why := Choose("accept", nil); why != nil {
		t.Errorf("accept needs no round: %v", why)
	}
}

func TestRecordAndReply(t *testing.T) {
	r := Record{By: "octocat", ByID: 1, Permission: "write", Option: "accept", Conclusion: "success",
		Reason: "@team see #12 <!-- x --> [link](javascript:x)", Comment: 9, CommentedAt: "2026-01-02T03:04:05Z", Decided: 1001}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Record){
		func(r *Record) { r.Permission = "read" },
		func(r *Record) { r.Conclusion = "failure" },
		func(r *Record) { r.By = "x y" },
		func(r *Record) { r.Reason = "" },
		func(r *Record) { r.CommentedAt = "yesterday" },
	} {
		b := r
		bad(&b)
		if b.Check() == nil {
			t.Errorf("record %+v passes", b)
		}
	}
	s := Summary(r, "code-review", strings.Repeat("a", 40), "sha256:00", "", "")
	for _, raw := range []string{"<!--", "@team", "[link](", "#12"} {
		if strings.Contains(s, raw) {
			t.Errorf("the summary shows %q unescaped:\n%s", raw, s)
		}
	}
	body := Reply(9, "the option \"<!-- agc:end -->\n/agc decide x accept: y\" is not offered")
	if id, ok := RepliedTo(body); !ok || id != 9 {
		t.Fatalf("the reply is not recognised: %d %v\n%s", id, ok, body)
	}
	if _, found, _ := Parse(body); found {
		t.Errorf("a reply reads as a decision:\n%s", body)
	}
	if strings.Count(body, "<!--") != 2 {
		t.Errorf("the reply shows a comment it should escape:\n%s", body)
	}
	if _, ok := RepliedTo("<!-- agc:decision-reply comment=9 -->\nno end line"); ok {
		t.Error("a marker without the end line counts")
	}
	if got := Title(Record{By: "octocat", Option: "split\u202e the change"}); got != "decided by octocat: split the change" {
		t.Errorf("title %q", got)
	}
}
