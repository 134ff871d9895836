package agc

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckGateID(t *testing.T) {
	for _, id := range []string{"go-lint", "code-review", "secrets", "eslint", "a", "0", "gate-admission/a1b2c3", "v1.2_x-y", strings.Repeat("a", MaxGateIDLen)} {
		if err := CheckGateID(id); err != nil {
			t.Errorf("%q: %v", id, err)
		}
	}
	cases := []struct{ id, want string }{
		{"", "empty"},
		{"code-review\n::error::x", `holds '\n'`},
		{"code-review\r", `holds '\r'`},
		{"ESLint", "upper case"},
		{"a b", `holds ' '`},
		{"a%0Ab", `holds '%'`},
		{"a:b", `holds ':'`},
		{"a,b", `holds ','`},
		{"a##[x]", `holds '#'`},
		{"a*b", `holds '*'`},
		{"a`b", "holds '`'"},
		{"a<b", `holds '<'`},
		{"a|b", `holds '|'`},
		{"a\u202eb", `holds '\u202e'`},
		{"a\xffb", "byte 0xff"},
		{"/a", "empty segment"},
		{"a/", "empty segment"},
		{"a//b", "empty segment"},
		{"a/../b", "starting with \".\""},
		{".a", "starting with \".\""},
		{"-a", "starting with \"-\""},
		{"_a", "starting with \"_\""},
		{strings.Repeat("a", MaxGateIDLen+1), "more than 100"},
	}
	for _, c := range cases {
		err := CheckGateID(c.id)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.id, err, c.want)
			continue
		}
		if strings.ContainsAny(err.Error(), "\n\r") || !utf8.ValidString(err.Error()) {
			t.Errorf("%q: the message must be one line of valid text: %q", c.id, err)
		}
	}
}

// FuzzGateID: CheckGateID never panics; what it accepts is in the
// documented set; its message is one line.
func FuzzGateID(f *testing.F) {
	for _, s := range []string{"go-lint", "gate-admission/a1", "ESLint", "a\nb", "", "/", "a//b", ".x", "a\u202e", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		err := CheckGateID(id)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("message with a line break: %q", err)
			}
			return
		}
		if id == "" || len(id) > MaxGateIDLen || strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789._-/") != "" {
			t.Fatalf("accepted %q", id)
		}
		for _, seg := range strings.Split(id, "/") {
			if seg == "" || strings.IndexAny(seg[:1], "._-") == 0 {
				t.Fatalf("accepted %q with segment %q", id, seg)
			}
		}
	})
}

func TestPlaceInJSONLines(t *testing.T) {
	data := []byte("{\"gate\": {\"id\": \"a\"}}\n\n  {\"gate\": {\"id\": \"B\"}}\n")
	docs, err := DecodeAll("f", data, Limits{})
	if err != nil || len(docs) != 2 {
		t.Fatalf("DecodeAll: %d docs, %v", len(docs), err)
	}
	if got := docs[1].PlaceIn(data, "/gate/id").String(); got != "f:3:19" {
		t.Errorf("place %q, want f:3:19", got)
	}
	if got := docs[0].PlaceIn(data, "/gate/id").String(); got != "f:1:17" {
		t.Errorf("place %q, want f:1:17", got)
	}
}
