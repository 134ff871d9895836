package subject

import (
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
