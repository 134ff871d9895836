package golden

import (
	"os"
	"path/filepath"
	"testing"
)

func TestJSONDiffByMeaning(t *testing.T) {
	if d, err := JSONDiff([]byte(`{"a":1,"b":[1,2]}`), []byte("{\n \"b\": [1, 2], \"a\": 1}\n")); err != nil || d != "" {
		t.Errorf("same meaning: diff %q, err %v", d, err)
	}
	if d, _ := JSONDiff([]byte(`{"a":1}`), []byte(`{"a":2}`)); d == "" {
		t.Error("different values must differ")
	}
	if _, err := JSONDiff([]byte(`{`), []byte(`{}`)); err == nil {
		t.Error("a broken golden file must be an error")
	}
}

func TestCheckUpdateThenCompare(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "out.txt")
	Check(t, p, []byte("hello\n"), true)
	if data, err := os.ReadFile(p); err != nil || string(data) != "hello\n" {
		t.Fatalf("update wrote %q, %v", data, err)
	}
	Check(t, p, []byte("hello\n"), false)
	var ft fakeT
	Check(&ft, p, []byte("bye\n"), false)
	if !ft.failed {
		t.Error("a different output must fail")
	}
}

// fakeT records a failure instead of failing.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Fatal(...any)          { f.failed = true }
