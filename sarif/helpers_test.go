package sarif

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// eachConverted calls fn with each file's bytes and the responses ToAGC
// makes of it: nil when ReadLog refuses it.
func eachConverted(t testing.TB, files []string, fn func(file string, data []byte, rs []*agc.Response)) {
	t.Helper()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rs []*agc.Response
		if log, _, err := ReadLog(bytes.NewReader(data), f, ReadOptions{}); err == nil {
			rs, _ = ToAGC(log, ToAGCOptions{})
		}
		fn(f, data, rs)
	}
}

// viaText is rs written by agc.Encode and read back by agc.Decode, as two
// runs of the CLI pass them.
func viaText(t testing.TB, file string, rs []*agc.Response) []*agc.Response {
	t.Helper()
	back := make([]*agc.Response, len(rs))
	for i, r := range rs {
		text, err := agc.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if back[i], err = agc.Decode(file, text, agc.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	return back
}

// TestURIMatchers: hasScheme and hasDrive match what the regular
// expressions they replace match.
func TestURIMatchers(t *testing.T) {
	for _, s := range []string{"", ":", "a", "a:", "A:/x", "/c:/x", "//c:/x", "c:", "c:x", "/c:", "1a:", "a1+.-:", "a_b:", "file:///x", "https://x", "src/a:b", "é:", "a:/", "/", "ab:/"} {
		checkURIMatchers(t, s)
	}
}

func FuzzURIMatchers(f *testing.F) {
	for _, s := range []string{"a:", "/c:/x", "file:///x", "src/a.go"} {
		f.Add(s)
	}
	f.Fuzz(checkURIMatchers)
}

func checkURIMatchers(t *testing.T, s string) {
	scheme := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`)
	drive := regexp.MustCompile(`^/?[A-Za-z]:/`)
	if got, want := hasDrive(s), drive.MatchString(s); got != want {
		t.Fatalf("hasDrive(%q) = %v, want %v", s, got, want)
	}
	if got, want := hasScheme(s), scheme.MatchString(s) && !drive.MatchString(s); got != want {
		t.Fatalf("hasScheme(%q) = %v, want %v", s, got, want)
	}
}
