package sarif

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/testkit"
)

// checkDirect: encodeDirect writes exactly what FromAGC and Marshal write
// (and refuses what CheckLimits refuses, with the same error). mustWrite:
// it may not decline.
func checkDirect(t *testing.T, name string, rs []*agc.Response, opts WriteOptions, mustWrite bool) {
	t.Helper()
	want, wantErr := encodeViaFromAGC(rs, opts, NewSource(opts.FS))
	got, err := encodeDirect(rs, opts, NewSource(opts.FS))
	switch {
	case err == errNotDirect && mustWrite:
		t.Fatalf("%s %+v: declined; FromAGC writes %.300s (%v)", name, opts, want, wantErr)
	case err == errNotDirect:
	case fmt.Sprint(err) != fmt.Sprint(wantErr):
		t.Fatalf("%s %+v: error %v, FromAGC+Marshal: %v", name, opts, err, wantErr)
	case !bytes.Equal(got, want):
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s %+v: differs from FromAGC+Marshal at byte %d\n got %.400s\nwant %.400s", name, opts, i, got[max(0, i-100):], want[max(0, i-100):])
	}
	if all, err := Encode(rs, opts); !bytes.Equal(all, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%s %+v: Encode is not FromAGC+Marshal: %v, %v", name, opts, err, wantErr)
	}
}

// TestEncodeIsFromAGCMarshal: Encode's direct writer writes the bytes of
// FromAGC and Marshal for the AGC ToAGC makes of every corpus log and
// SARIF golden and fixture (as is and through AGC text), and for every AGC
// fixture and golden, with and without sources, findings only, and a
// category; and declines none of them.
func TestEncodeIsFromAGCMarshal(t *testing.T) {
	src := fstest.MapFS{
		"src/store/db.go": {Data: []byte("package store\n\nvar dbUrl = \"postgres://\"\n\nfunc Open() (*DB, error) {\n\tdb := connect(dbUrl)\n\tdb.Ping()\n\treturn db, nil\n}\n")},
	}
	all := func(name string, rs []*agc.Response) {
		for _, opts := range []WriteOptions{{}, {FS: src}, {FindingsOnly: true}, {Category: "lint"}} {
			checkDirect(t, name, rs, opts, true)
		}
	}
	sarifs, _ := filepath.Glob("testdata/*.sarif")
	fixtures, _ := filepath.Glob("../fixtures/sarif/*.sarif")
	n := 0
	eachConverted(t, append(append(testkit.Corpus(t), sarifs...), fixtures...), func(f string, _ []byte, rs []*agc.Response) {
		if rs != nil {
			all(f, rs)
			all(f+" (AGC text)", viaText(t, f, rs))
			n++
		}
	})
	for _, f := range agcInputs(t) {
		all(f, decodeAGC(t, f))
		n++
	}
	if n < 20 {
		t.Fatalf("only %d inputs", n)
	}
}

func directResponse(gate string, findings ...agc.Finding) *agc.Response {
	return &agc.Response{AGC: "0.1", Gate: agc.Gate{ID: gate, Kind: agc.Deterministic},
		Subject: agc.Subject{Kind: agc.SubjectCommit, Fingerprint: "sha256:00"}, Verdict: agc.Allow,
		Coverage: agc.Coverage{Complete: true, Classes: []string{"c"}, NotChecked: []string{"x"}}, Attempt: agc.Attempt{N: 1, Budget: 1},
		Findings: findings}
}

func directFinding(i int, loc string) agc.Finding {
	return agc.Finding{ID: fmt.Sprintf("g/c/f%d", i), Class: "c", Location: loc, What: "w", Why: "y",
		Severity: agc.Advisory, Status: agc.StatusNew, Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "true"}, Check: agc.Check{Kind: agc.CheckPreview}}
}

// TestEncodeDirectOdd: the direct writer on what the fixtures lack: no
// findings, runs without results between others, a gate twice, GitHub's
// limits, unknown members that are not the agc-action/sarif member alone,
// and unknown members that do not encode (declined: FromAGC says why).
func TestEncodeDirectOdd(t *testing.T) {
	many := directResponse("big")
	for i := range MaxResultsPerRun + 1 {
		many.Findings = append(many.Findings, directFinding(i, fmt.Sprintf("f%d.go", i)))
	}
	f := func(i int, loc string, unknown string) agc.Finding {
		x := directFinding(i, loc)
		if unknown != "" {
			x.Unknown = agc.Unknown(unknown)
		}
		return x
	}
	odd := "a\"b\\c\b\f\n\r\t\x00\x1f\x7f<&>\u2028\u2029é😀 end"
	oddF := f(1, odd, "")
	oddF.What, oddF.Why, oddF.Class, oddF.Severity, oddF.Status = odd, odd, odd, odd, agc.StatusStillOpen
	for name, tt := range map[string]struct {
		rs    []*agc.Response
		write bool
	}{
		"none":       {nil, true},
		"no finding": {[]*agc.Response{directResponse("g")}, true},
		"between":    {[]*agc.Response{directResponse("a", f(1, "a.go", "")), directResponse("b"), directResponse("a", f(2, "dir/b.go#Sym", ""))}, true},
		"placeholder": {[]*agc.Response{directResponse("g", f(1, "/abs/path", ""), f(2, "", ""), f(3, "../up", ""),
			f(4, "dir/x y%.go", ""))}, true},
		"odd strings":  {[]*agc.Response{directResponse(odd, oddF)}, true},
		"over a limit": {[]*agc.Response{many}, true},
		"other unknown": {[]*agc.Response{directResponse("g", f(1, "a.go", `{"z":1}`), f(2, "a.go", `{ "agc-action/sarif" : { "level" : "note" , "uri" : "q.go" } }`),
			f(3, "a.go", `{"agc-action/sarif":{"level":"note","partialFingerprints":{"primaryLocationLineHash":"h","a":"b"},"fingerprints":{"agcFindingId/v1":"other"}},"w":[1, 2]}`))}, true},
		"unknown that does not encode": {[]*agc.Response{directResponse("g", f(1, "a.go", `{"z":`))}, false},
	} {
		for _, opts := range []WriteOptions{{}, {FindingsOnly: true}} {
			checkDirect(t, name, tt.rs, opts, tt.write)
		}
	}
	if _, err := Encode([]*agc.Response{many}, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "25001 results in one run") {
		t.Errorf("over the limit: %v", err)
	}
}

// FuzzEncodeDirect: for findings of any text, the direct writer writes
// FromAGC and Marshal's bytes, or declines.
func FuzzEncodeDirect(f *testing.F) {
	f.Add("c", "src/a.go", "what", "why", agc.Blocking, agc.StatusNew, `{"agc-action/sarif":{"level":"note","uri":"src/a.go","region":{"startLine":3,"charOffset":0,"snippet":"x"}}}`, uint8(0))
	f.Add("c/d", "src/a.go#Open", "w", "", agc.Advisory, agc.StatusRegressed, "", uint8(1))
	f.Add("c", "Bash.command", "w\u2028", "y", "odd", "", `{"agc-action/sarif":{"level":"error","uri":"","logical":"L","fixes":[{"changes":[{"uri":"a.go","replacements":[{"deleted":{"startLine":1},"inserted":"z"}]}]}]}}`, uint8(2))
	src := fstest.MapFS{"src/a.go": {Data: []byte("package a\n\nfunc Open() {}\n")}, "README.md": {Data: []byte("# r\n")}}
	f.Fuzz(func(t *testing.T, class, loc, what, why, severity, status, unknown string, mode uint8) {
		fd := agc.Finding{ID: "g/" + class + "/1", Class: class, Location: loc, What: what, Why: why, Severity: severity, Status: status,
			Remedy: agc.Remedy{Kind: agc.RemedyCommand, Run: "true"}, Check: agc.Check{Kind: agc.CheckPreview}}
		if mode&1 != 0 {
			fd.Remedy = agc.Remedy{Kind: agc.RemedyPatch, Edits: []agc.Edit{{Path: "src/a.go", Find: "Open", Replace: what}}}
		}
		if unknown != "" {
			fd.Unknown = agc.Unknown(unknown)
		}
		r := directResponse("g", fd, directFinding(2, "README.md"))
		if mode&2 != 0 {
			r.Subject.Kind = agc.SubjectToolCall
		}
		opts := WriteOptions{FindingsOnly: mode&4 != 0}
		if mode&8 != 0 {
			opts.FS = src
		}
		checkDirect(t, "fuzz", []*agc.Response{r}, opts, false)
	})
}
