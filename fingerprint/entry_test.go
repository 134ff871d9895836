package fingerprint

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseLsTree(t *testing.T) {
	out := "100644 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\tb c\x00" +
		"160000 commit 0123456789abcdef0123456789abcdef01234567\tvendor/lib\x00" +
		"120000 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\ta\tb\x00"
	es, err := ParseLsTree([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].Path != "a\tb" || es[1].Path != "b c" || es[2].Mode != ModeGitlink {
		t.Errorf("parsed %v", es)
	}
	for _, bad := range []string{
		"100644 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\ta",          // no NUL
		"040000 tree 2e65efe2a145dda7ee51d1741299f848e5bf752e\ta\x00",      // a tree
		"100644 blob 2E65EFE2A145DDA7EE51D1741299F848E5BF752E\ta\x00",      // upper case
		"100644 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\ta/../b\x00", // dot-dot
		"100644 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\ta\x00" + "100644 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\ta\x00",
	} {
		if _, err := ParseLsTree([]byte(bad)); err == nil {
			t.Errorf("ParseLsTree(%q) = nil error", strings.ReplaceAll(bad, "\x00", `\0`))
		}
	}
}

func TestReadLsTreeInPieces(t *testing.T) {
	out := lsTreeOutput(3000) // more than one read buffer
	want, err := ParseLsTree(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(bytes.NewReader(out)),
		"halves":   iotest.HalfReader(bytes.NewReader(out)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(out)),
	} {
		got, err := ReadLsTree(r)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %d entries, %v; want %d", name, len(got), err, len(want))
		}
	}
	if _, err := ReadLsTree(iotest.ErrReader(io.ErrClosedPipe)); err == nil {
		t.Errorf("a failing reader gave no error")
	}
}

func FuzzParseLsTree(f *testing.F) {
	f.Add([]byte("100644 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\tsrc/a.go\x00"))
	f.Add([]byte("160000 commit 0123456789abcdef0123456789abcdef01234567\tvendor/lib\x00120000 blob 2e65efe2a145dda7ee51d1741299f848e5bf752e\tl\x00"))
	f.Fuzz(func(t *testing.T, out []byte) {
		es, err := ParseLsTree(out)
		slow, serr := ReadLsTree(iotest.OneByteReader(bytes.NewReader(out)))
		if (err == nil) != (serr == nil) || !slices.Equal(es, slow) {
			t.Fatalf("read a byte at a time: %v, %v; at once: %v, %v", slow, serr, es, err)
		}
		if err != nil {
			return
		}
		for i, e := range es {
			if checkEntry(e) != nil || i > 0 && es[i-1].Path >= e.Path {
				t.Fatalf("entry %d %v accepted out of order or invalid", i, e)
			}
		}
		s, _ := ParseScope([]string{"**/*.go"})
		if _, err := Select(es, s, func(string) ([]byte, error) { return []byte("x"), nil }); err != nil && !strings.Contains(err.Error(), "symlink") {
			t.Fatalf("Select: %v", err)
		}
	})
}
