// Package formats is the registry of the formats "agc-sarif convert" reads
// and writes. A Format has a name, and a Read, a Write, or both; Detect
// lets "--from auto" recognise its inputs. A Registry is a value built by a
// constructor: Default holds the built-in formats, and a new format is one
// more entry there (see Builtin), without touching the others.
package formats

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
)

// ReadOptions are what readers may need beyond the input's bytes.
type ReadOptions struct {
	// FS is the source root the input's paths are relative to; nil: none.
	FS fs.FS
	// Root is the source root's absolute, slash-separated path.
	Root string
	// FailLevel is the lowest SARIF level that blocks: error, warning,
	// note or none.
	FailLevel string
	// Gate and Class name the gate and the class of inputs that do not
	// name their own (a diff; rdjson without a source, for Gate); "":
	// named after the input (GateFor).
	Gate, Class string
}

// WriteOptions are what writers may need beyond the responses.
type WriteOptions struct {
	// FS is the source root, to resolve lines; nil: none.
	FS fs.FS
	// Ask makes a Claude Code PreToolUse answer ask the person even for a
	// repair (docs/bridges.md).
	Ask bool
}

// Format is one named format. Read is nil for an output-only format,
// Write for an input-only one; Detect is nil when "--from auto" must never
// pick it. Read's lint are the repairs it made to imperfect input that it
// still read, each placed in file.
type Format struct {
	Name   string
	Help   string
	Detect func(data []byte) bool
	Read   func(file string, data []byte, opts ReadOptions) ([]*agc.Response, []diag.Lint, error)
	Write  func(w io.Writer, rs []*agc.Response, opts WriteOptions) error
}

// Registry is an ordered set of formats. Detection tries formats in the
// order they were added.
type Registry struct {
	formats []Format
}

// New returns a registry of the given formats. Names must be unique and
// non-empty, and each format must read or write.
func New(fs ...Format) (*Registry, error) {
	r := &Registry{}
	for _, f := range fs {
		if err := r.Add(f); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add appends a format.
func (r *Registry) Add(f Format) error {
	switch {
	case f.Name == "" || f.Name == "auto":
		return fmt.Errorf("format name %q is reserved", f.Name)
	case f.Read == nil && f.Write == nil:
		return fmt.Errorf("format %q neither reads nor writes", f.Name)
	case f.Detect != nil && f.Read == nil:
		return fmt.Errorf("format %q detects inputs it cannot read", f.Name)
	}
	if _, ok := r.Lookup(f.Name); ok {
		return fmt.Errorf("format %q is registered twice", f.Name)
	}
	r.formats = append(r.formats, f)
	return nil
}

// Lookup finds a format by name.
func (r *Registry) Lookup(name string) (Format, bool) {
	for _, f := range r.formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Inputs and Outputs are the names of the formats that read or write, in
// registration order.
func (r *Registry) Inputs() []string  { return r.names(func(f Format) bool { return f.Read != nil }) }
func (r *Registry) Outputs() []string { return r.names(func(f Format) bool { return f.Write != nil }) }

func (r *Registry) names(keep func(Format) bool) []string {
	var out []string
	for _, f := range r.formats {
		if keep(f) {
			out = append(out, f.Name)
		}
	}
	return out
}

// DetectError is an input no registered format recognises. Its place is
// the whole file.
type DetectError struct {
	diag.Place
	Tried []string
}

func (e *DetectError) Error() string {
	return e.Place.Text(fmt.Sprintf("cannot detect the format (tried %s); name it with --from", strings.Join(e.Tried, ", ")))
}

// Detect returns the first format, in registration order, that recognises
// data.
func (r *Registry) Detect(file string, data []byte) (Format, error) {
	var tried []string
	for _, f := range r.formats {
		if f.Detect == nil {
			continue
		}
		if f.Detect(data) {
			return f, nil
		}
		tried = append(tried, f.Name)
	}
	sort.Strings(tried)
	if len(bytes.TrimSpace(data)) == 0 {
		return Format{}, fmt.Errorf("%s: empty input", file)
	}
	return Format{}, &DetectError{Place: diag.Place{File: file}, Tried: tried}
}
