package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"slices"
	"strings"
)

// Domain tag and version of the tree fingerprint (docs/fingerprint.md).
const (
	TreeDomain  = "agc-action/fingerprint/tree"
	TreeVersion = "1"
	Prefix      = "sha256:"
)

// Gate is the identity of the gate a fingerprint is bound to: changing its
// id, version or any of its configuration files changes the fingerprint.
type Gate struct {
	ID      string
	Version string
	Configs []Config
}

// Config is one gate configuration file: its repo-relative path and the
// SHA-256 of its bytes.
type Config struct {
	Path   string
	SHA256 [32]byte
}

// NewConfig hashes the bytes of a configuration file.
func NewConfig(path string, data []byte) Config {
	return Config{Path: path, SHA256: sha256.Sum256(data)}
}

// Encode returns the bytes a tree fingerprint hashes. Every variable field
// is a 4-byte big-endian length followed by its bytes; every list is a
// 4-byte big-endian count followed by its items. selected must be sorted
// by path (as Select returns it).
func Encode(s Scope, g Gate, selected []Entry) []byte {
	var b bytes.Buffer
	encode(&b, s, g, selected)
	return b.Bytes()
}

// Sum returns the tree fingerprint, "sha256:" and 64 lowercase hex digits.
// It streams the encoding into the hash.
func Sum(s Scope, g Gate, selected []Entry) string {
	h := sha256.New()
	encode(h, s, g, selected)
	return Prefix + hex.EncodeToString(h.Sum(nil))
}

func encode(w io.Writer, s Scope, g Gate, selected []Entry) {
	e := &encoder{w: w, buf: make([]byte, 0, 64<<10)}
	e.header(s, g)
	e.count(len(selected))
	for _, en := range selected {
		e.entry(en)
	}
	e.flush()
}

// header writes what comes before the entries: the domain, the scope and
// the gate.
func (e *encoder) header(s Scope, g Gate) {
	e.field(TreeDomain)
	e.field(TreeVersion)
	e.count(len(s.patterns))
	for _, p := range s.patterns {
		e.field(p)
	}
	e.field(g.ID)
	e.field(g.Version)
	configs := sortedConfigs(g.Configs)
	e.count(len(configs))
	for _, c := range configs {
		e.field(c.Path)
		e.field(hex.EncodeToString(c.SHA256[:]))
	}
}

// encoder buffers the encoding on its way to a writer that cannot fail
// (a hash or a bytes.Buffer).
type encoder struct {
	w   io.Writer
	buf []byte
}

func (e *encoder) field(s string) {
	if len(e.buf)+4+len(s) > cap(e.buf) {
		e.flush()
	}
	e.buf = binary.BigEndian.AppendUint32(e.buf, uint32(len(s)))
	if len(s) > cap(e.buf)-len(e.buf) {
		e.flush()
		e.w.Write([]byte(s))
		return
	}
	e.buf = append(e.buf, s...)
}

// entry writes an entry's four fields, at once when they fit the buffer.
func (e *encoder) entry(en Entry) {
	if 16+len(en.Path)+len(en.Mode)+len(en.Type)+len(en.OID) > cap(e.buf)-len(e.buf) {
		e.field(en.Path)
		e.field(en.Mode)
		e.field(en.Type)
		e.field(en.OID)
		return
	}
	b := binary.BigEndian.AppendUint32(e.buf, uint32(len(en.Path)))
	b = append(b, en.Path...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(en.Mode)))
	b = append(b, en.Mode...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(en.Type)))
	b = append(b, en.Type...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(en.OID)))
	e.buf = append(b, en.OID...)
}

func (e *encoder) count(n int) {
	if len(e.buf)+4 > cap(e.buf) {
		e.flush()
	}
	e.buf = binary.BigEndian.AppendUint32(e.buf, uint32(n))
}

func (e *encoder) flush() {
	e.w.Write(e.buf)
	e.buf = e.buf[:0]
}

func sortedConfigs(cs []Config) []Config {
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b Config) int { return strings.Compare(a.Path, b.Path) })
	return cs
}
