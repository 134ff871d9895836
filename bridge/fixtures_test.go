package bridge

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	goldenfile "github.com/agcgate/agc-action/internal/golden"
	"github.com/agcgate/agc-action/validate"
)

var update = flag.Bool("update", false, "rewrite golden files")

const fixtureRoot = "../fixtures/bridges"

type convertFunc func(file string, data []byte) (*agc.Response, []diag.Lint, error)

// source is one bridged format: its fixture directory, its converter, its
// detector, and the verdict each fixture name prefix must give (longest
// prefix first).
type source struct {
	dir      string
	convert  convertFunc
	detect   func([]byte) bool
	verdicts [][2]string
}

var sources = []source{
	{"agent-protocol", FromAgentProtocol, LooksLikeAgentProtocol, [][2]string{
		{"complete-no-verification-", agc.Block},
		{"complete-pass-", agc.Allow},
		{"verification-fail-", agc.Block},
		{"blocked-", agc.Escalate},
		{"needs-input-", agc.Escalate},
		{"approval-request-", agc.Escalate},
	}},
	{"gate-receipt", FromReceipt, LooksLikeReceipt, [][2]string{
		{"repair-degraded-deny-", agc.Block},
		{"deny-degraded-abstain-", agc.Allow},
		{"deny-overridden-", agc.Block},
		{"deny-non-sha256-", agc.Block},
		{"deny-", agc.Block},
		{"repair-", agc.Repaired},
		{"allow-", agc.Allow},
		{"abstain-", agc.Allow},
		{"observe-", agc.Allow},
	}},
	{"fourgate", FromFourgate, LooksLikeFourgate, [][2]string{
		{"verifier-pass-", agc.Allow},
		{"verifier-fail-", agc.Block},
		{"outcome-pass-", agc.Allow},
		{"outcome-fail-", agc.Block},
		{"outcome-unknown-", agc.Escalate},
	}},
}

func (s source) wantVerdict(name string) (string, bool) {
	for _, p := range s.verdicts {
		if strings.HasPrefix(name, p[0]) {
			return p[1], true
		}
	}
	return "", false
}

// fixtures lists the files of dir (not its subdirectories), sorted.
func fixtures(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// bridgedFixture is one fixture of one source and what it converts to.
type bridgedFixture struct {
	src  source
	path string
	r    *agc.Response
}

// allBridged converts every fixture of every source; a fixture that does
// not read or convert fails the test.
func allBridged(t testing.TB) []bridgedFixture {
	t.Helper()
	var out []bridgedFixture
	for _, s := range sources {
		for _, path := range fixtures(t, filepath.Join(fixtureRoot, s.dir)) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, _, err := s.convert(path, data)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out = append(out, bridgedFixture{s, path, r})
		}
	}
	return out
}

// TestFixtures converts every fixture to AGC that the validator accepts,
// with the verdict its name promises, and compares it with its golden file.
func TestFixtures(t *testing.T) {
	for _, s := range sources {
		perPrefix := map[string]int{}
		for _, path := range fixtures(t, filepath.Join(fixtureRoot, s.dir)) {
			name := filepath.Base(path)
			t.Run(s.dir+"/"+name, func(t *testing.T) {
				want, ok := s.wantVerdict(name)
				if !ok {
					t.Fatalf("fixture %s has no expected verdict; name it after its state", name)
				}
				perPrefix[strings.TrimRight(strings.TrimSuffix(name, filepath.Ext(name)), "0123456789")]++
				r := convertValid(t, s, path)
				if r.Verdict != want {
					t.Errorf("verdict %q, want %q", r.Verdict, want)
				}
				golden(t, filepath.Join("testdata", s.dir, strings.TrimSuffix(name, filepath.Ext(name))+".agc.json"), r)
			})
		}
		for _, p := range s.verdicts {
			if n := perPrefix[p[0]]; n < 3 && !strings.Contains(p[0], "non-sha256") && !strings.Contains(p[0], "overridden") {
				t.Errorf("%s: %d fixtures for state %q, want at least 3", s.dir, n, p[0])
			}
		}
	}
}

// convertValid converts one fixture and validates the encoded response.
func convertValid(t *testing.T, s source, path string) *agc.Response {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, lints, err := s.convert(path, data)
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	for _, l := range lints {
		t.Logf("lint: %s", l)
	}
	out, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	if vs := validate.Bytes(path, out, agc.Limits{}); validate.HasErrors(vs) {
		t.Fatalf("invalid AGC:\n%v\n%s", vs, out)
	}
	return r
}

// golden compares r with the golden file at path by meaning.
func golden(t *testing.T, path string, r *agc.Response) {
	t.Helper()
	got, err := agc.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, path, got, *update)
}

// TestMalformed: every malformed fixture gives a *diag.Error that names the
// file and says what is wrong.
func TestMalformed(t *testing.T) {
	want := map[string]string{
		"agent-protocol/malformed/in-progress.md":      "IN_PROGRESS",
		"agent-protocol/malformed/missing-block.md":    "no fenced code block",
		"agent-protocol/malformed/two-blocks.md":       "2 fenced json:contract blocks",
		"agent-protocol/malformed/unknown-state.md":    "unknown plan_status \"DONE\"",
		"agent-protocol/malformed/wrong-type.md":       ".md:13: /evidence_report/files_checked: member \"files_checked\" must be an array of strings, not a string",
		"agent-protocol/malformed/unclosed.md":         "not closed",
		"agent-protocol/malformed/approval-missing.md": "approval_request is missing",
		"agent-protocol/malformed/bad-json.md":         ".md:4: /agent_status: the json:contract block is not well-formed JSON",
		"gate-receipt/malformed/unknown-action.json":   ".json:5:21: /enacted_action: unknown enacted_action \"block\"",
		"gate-receipt/malformed/wrong-type.json":       ".json:12:23: /proposal_digests: member \"proposal_digests\" must be an array of strings",
		"gate-receipt/malformed/missing-field.json":    ".json:1:1: /enacted_action: member \"enacted_action\" is required",
		"gate-receipt/malformed/not-object.json":       "must be a JSON object, not an array",
		"gate-receipt/malformed/duplicate-key.json":    "json.duplicate-key",
		"fourgate/malformed/unknown-status.json":       ".json:2:13: /status: unknown verifier status \"error\"",
		"fourgate/malformed/unknown-verdict.json":      ".json:2:14: /verdict: unknown outcome verdict \"MAYBE\"",
		"fourgate/malformed/fail-without-reason.json":  ".json:1:1: /reason_code: member \"reason_code\" is required",
		"fourgate/malformed/wrong-type.json":           ".json:3:18: /reason_code: member \"reason_code\" must be a string, not a number",
		"fourgate/malformed/both-forms.json":           "one or the other",
		"fourgate/malformed/neither.json":              "not a Fourgate result",
		"fourgate/malformed/bad-json.json":             "not well-formed JSON",
	}
	seen := 0
	for _, s := range sources {
		for _, path := range fixtures(t, filepath.Join(fixtureRoot, s.dir, "malformed")) {
			key := s.dir + "/malformed/" + filepath.Base(path)
			t.Run(key, func(t *testing.T) {
				seen++
				w, ok := want[key]
				if !ok {
					t.Fatalf("no expected error for %s", key)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				_, _, err = s.convert(path, data)
				var be *diag.Error
				if !errors.As(err, &be) {
					t.Fatalf("error %v (%T), want *diag.Error", err, err)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, path) || !strings.Contains(msg, w) {
					t.Errorf("error %q, want it to start with %q and contain %q", msg, path, w)
				}
			})
		}
	}
	if seen != len(want) {
		t.Errorf("%d malformed fixtures, %d expected errors", seen, len(want))
	}
}

// TestErrorLines: agent-protocol errors point at the line of the message:
// the fence at fault, or the line of the value inside the block.
func TestErrorLines(t *testing.T) {
	for name, line := range map[string]int{"two-blocks.md": 28, "wrong-type.md": 13, "unknown-state.md": 6, "unclosed.md": 3, "missing-block.md": 5} {
		path := filepath.Join(fixtureRoot, "agent-protocol", "malformed", name)
		data, _ := os.ReadFile(path)
		_, _, err := FromAgentProtocol(path, data)
		var be *diag.Error
		if !errors.As(err, &be) || be.Line != line {
			t.Errorf("%s: %v: want line %d", name, err, line)
		}
	}
}

// TestDetection: each fixture is recognised by its own detector only, and
// AGC and SARIF files by none.
func TestDetection(t *testing.T) {
	for _, s := range sources {
		for _, path := range fixtures(t, filepath.Join(fixtureRoot, s.dir)) {
			data, _ := os.ReadFile(path)
			for _, o := range sources {
				if got := o.detect(data); got != (o.dir == s.dir) {
					t.Errorf("%s detector on %s: %v", o.dir, path, got)
				}
			}
		}
	}
	var others []string
	for _, dir := range []string{"../fixtures/agc/valid", "../sarif/testdata"} {
		if ms, _ := filepath.Glob(filepath.Join(dir, "*.json")); ms != nil {
			others = append(others, ms...)
		}
		if ms, _ := filepath.Glob(filepath.Join(dir, "*.sarif")); ms != nil {
			others = append(others, ms...)
		}
	}
	if len(others) == 0 {
		t.Fatal("no AGC or SARIF files found to test detection against")
	}
	for _, path := range others {
		data, _ := os.ReadFile(path)
		for _, o := range sources {
			if o.detect(data) {
				t.Errorf("%s detector claims %s", o.dir, path)
			}
		}
	}
	if !LooksLikeAgentProtocol([]byte("x\n~~~ json:contract\n{}\n~~~\n")) || LooksLikeAgentProtocol([]byte("```json:contractual\n")) {
		t.Error("fence detection")
	}
	if LooksLikeFourgate(bytes.Repeat([]byte(" "), 10)) || LooksLikeReceipt([]byte("[")) {
		t.Error("non-objects detected")
	}
}

// TestFourgateEvidenceWithheld: the contract keeps a verifier's evidence
// out of the runtime verdict and the outcome log; it must not reach the
// AGC answer (and so the check run that embeds it).
func TestFourgateEvidenceWithheld(t *testing.T) {
	r, _, err := FromFourgate("v.json", []byte(`{"status":"fail","reason_code":"record_missing","evidence":{"token":"s3cr3t"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := agc.Encode(r)
	if strings.Contains(string(b), "s3cr3t") || !strings.Contains(string(b), "withheld") {
		t.Fatalf("evidence leaked or its absence unexplained:\n%s", b)
	}
}
