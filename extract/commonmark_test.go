//go:build commonmark

package extract

// Differential test against commonmark.js, the CommonMark reference
// implementation: random documents built from the constructs that decide
// where fences are must give the same fenced code blocks (start and end
// line, info string, content). Run with
//
//	COMMONMARK_JS=/path/to/node_modules/commonmark go test -tags commonmark ./extract
//
// (commonmark@0.31.2 from npm; testdata/commonmark/fences.js is the driver).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

var cmPrefixes = []string{"", "", "", " ", "  ", "   ", "    ", "     ", "\t", " \t", "  \t", "> ", ">", ">\t", "> >", "- ", "-\t", "* ", "+ ", "1. ", "01. ", "2) ", "10. ", "-    ", "-      ", "- \t", "  > ", "  - ", "   1. ", "-", "1."}

var cmBodies = []string{
	"```", "````", "~~~", "~~~~", "```agc", "``` agc", "~~~ agc {.x}", "```agc `x`", "```go", "````agc",
	"``` ", "```\t", "text", "more text", "", "", "", "<div>", "<!-- c", "-->", "<pre>", "x</pre>",
	"<span>", "# head", "---", "===", "***", "- - -", "{\"agc\": \"0.1\"}", "  ```", "\t```",
	"```agc\\", "```a\\gc", "```&#97;gc", "``\u00e9", "```\u00e9", "\x80```", "`````", "~~~~~ agc", "``` ```",
	"<script>", "x </script>", "<?x", "?>", "<!X", ">", "<![CDATA[", "]]>", "<a href='x'>", "</div>", "<div", "[a]: /u", "## h ##", "[b]:", "/v \"t\"", "[c]: <x y> 't' z", "(t)", "-", "=", "[",
}

func randomDoc(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(14) {
		for range r.IntN(3) {
			b.WriteString(cmPrefixes[r.IntN(len(cmPrefixes))])
		}
		b.WriteString(cmBodies[r.IntN(len(cmBodies))])
		b.WriteString([]string{"\n", "\n", "\n", "\r\n", "\r"}[r.IntN(5)])
	}
	return strings.ToValidUTF8(b.String(), "?") + "\n"
}

type cmFence struct {
	Start, End int
	Info       string
	Literal    string
}

func goFences(doc string) []cmFence {
	var out []cmFence
	p := &parser{keepAll: true, onFence: func(f fence) {
		out = append(out, cmFence{f.Start, f.End, unescape(f.Info), string(f.Content)})
	}}
	p.scan(doc)
	return out
}

func jsFences(t *testing.T, docs []string) [][]cmFence {
	in, _ := json.Marshal(docs)
	cmd := exec.Command("node", "testdata/commonmark/fences.js")
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "COMMONMARK_JS="+os.Getenv("COMMONMARK_JS"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/commonmark/fences.js (set COMMONMARK_JS to commonmark@0.31.2's directory): %v", err)
	}
	var raw [][][]any
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	res := make([][]cmFence, len(raw))
	for i, fs := range raw {
		for _, f := range fs {
			res[i] = append(res[i], cmFence{int(f[0].(float64)), int(f[1].(float64)), f[2].(string), f[3].(string)})
		}
	}
	return res
}

func TestCommonMarkDifferential(t *testing.T) {
	if os.Getenv("COMMONMARK_JS") == "" {
		t.Fatal("COMMONMARK_JS must name the directory of commonmark@0.31.2 (npm install commonmark@0.31.2)")
	}
	seed, _ := strconv.ParseUint(os.Getenv("COMMONMARK_SEED"), 10, 64)
	r := rand.New(rand.NewPCG(seed, 2))
	docs := make([]string, 20000)
	for i := range docs {
		docs[i] = randomDoc(r)
	}
	js := jsFences(t, docs)
	bad := 0
	for i, d := range docs {
		g := goFences(d)
		if fmt.Sprint(g) != fmt.Sprint(js[i]) {
			bad++
			if bad <= 5 {
				t.Errorf("doc %q:\n go %+v\n js %+v", d, g, js[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d documents differ", bad, len(docs))
	}
}
