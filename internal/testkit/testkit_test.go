package testkit

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records how a helper ended a test, so the skip/fail choice and
// the empty-glob check can themselves be tested.
type fakeTB struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatal(args ...any) {
	f.failed, f.msg = true, fmt.Sprint(args...)
	panic(f)
}
func (f *fakeTB) Fatalf(format string, args ...any) { f.Fatal(fmt.Sprintf(format, args...)) }
func (f *fakeTB) Skip(args ...any) {
	f.skipped, f.msg = true, fmt.Sprint(args...)
	panic(f)
}

func run(f *fakeTB, fn func()) {
	defer func() {
		if r := recover(); r != nil && r != any(f) {
			panic(r)
		}
	}()
	fn()
}

func TestMissingSkipsOrFails(t *testing.T) {
	for _, require := range []string{"", "1"} {
		t.Setenv(RequireEnv, require)
		f := &fakeTB{TB: t}
		run(f, func() { File(f, "the thing", "no", "such", "file") })
		if got := require != ""; f.failed != got || f.skipped == got {
			t.Errorf("%s=%q: failed=%v skipped=%v", RequireEnv, require, f.failed, f.skipped)
		}
		if !strings.Contains(f.msg, "make setup") || !strings.Contains(f.msg, "the thing") {
			t.Errorf("message does not say what is missing or how to install it: %q", f.msg)
		}
	}
}

func TestGlobRefusesNoMatch(t *testing.T) {
	f := &fakeTB{TB: t}
	run(f, func() { Glob(f, filepath.Join(t.TempDir(), "*.json")) })
	if !f.failed || !strings.Contains(f.msg, "matches no file") {
		t.Errorf("an empty glob did not fail: %+v", f)
	}
	if got := Glob(t, "*.go"); len(got) < 2 || got[0] > got[1] {
		t.Errorf("Glob(*.go) = %v, want the package's files sorted", got)
	}
}

func TestResponse(t *testing.T) {
	files := Glob(t, filepath.Join(RepoRoot(t), "fixtures", "agc", "valid", "*.json"))
	if r := Response(t, files[0]); r.Gate.ID == "" {
		t.Errorf("%s decoded without a gate id", files[0])
	}
}

func TestWantErr(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		want       string
		fails      bool
		wantReturn bool
	}{
		{"no error, none wanted", nil, "", false, false},
		{"error, none wanted", errors.New("boom"), "", true, false},
		{"no error, one wanted", nil, "boom", true, true},
		{"another error", errors.New("bang"), "boom", true, true},
		{"the error wanted", errors.New("a boom here"), "boom", false, true},
	}
	for _, tc := range tests {
		f := &fakeTB{TB: t}
		var got bool
		run(f, func() { got = WantErr(f, tc.err, tc.want) })
		if f.failed != tc.fails || (!tc.fails && got != tc.wantReturn) {
			t.Errorf("%s: failed=%v returned %v, want failed=%v returned %v", tc.name, f.failed, got, tc.fails, tc.wantReturn)
		}
	}
}
