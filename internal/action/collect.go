package action

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/extract"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/validate"
	"github.com/bmatcuk/doublestar/v4"
)

// collected is every gate answer the Action was given.
type collected struct {
	gates  []agc.Doc         // one per gate, in input order
	source map[string]string // gate id -> where its answer came from
	agc    []*agc.Response   // answers given as AGC (uploaded as one SARIF log)
	sarif  [][]byte          // SARIF logs given, uploaded as they are
	checks []validate.Input  // the AGC documents validated
	vs     []validate.Violation
	lint   []string // repairs the readers made, for the log
}

// expand resolves glob patterns against root, sorted, each file once. A
// pattern that matches nothing is an error: a gate whose answer is missing
// must not pass unnoticed.
func expand(root string, patterns []string) ([]string, error) {
	var files []string
	fsys := cmdenv.MustSourceFS(root)
	for _, p := range patterns {
		if filepath.IsAbs(p) {
			if _, err := os.Stat(p); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			files = append(files, p)
			continue
		}
		matches, err := doublestar.Glob(fsys, filepath.ToSlash(p), doublestar.WithFilesOnly())
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("pattern %q matches no file under %s", p, root)
		}
		slices.Sort(matches)
		for _, m := range matches {
			files = append(files, filepath.Join(root, filepath.FromSlash(m)))
		}
	}
	return slices.Compact(files), nil
}

// collectAGC reads each file given as an AGC answer: an AGC response (or an
// array or JSON Lines of them), an answer in a bridged gate format, or an
// agent's message ending in an agc block.
func collectAGC(c *collected, reg *formats.Registry, root, file string, data []byte) {
	name := relName(root, file)
	switch {
	case formats.LooksLikeAGC(data) || (cmdenv.LooksLikeJSON(data) && !looksLikeOther(reg, data)):
		c.addAGC(name, data) // the validator explains what is wrong with it
	case looksLikeOther(reg, data):
		c.addBridged(reg, name, data)
	default:
		b, lints, err := extract.Find(name, data)
		if err != nil {
			c.vs = append(c.vs, unreadable(name, err))
			return
		}
		for _, l := range lints {
			c.lint = append(c.lint, fmt.Sprintf("%s:%d: %s", name, l.Line, l.Message))
		}
		c.addAGC(fmt.Sprintf("%s:%d", name, b.StartLine+1), b.Content)
	}
}

// addBridged converts an answer in a neighbouring gate format.
func (c *collected) addBridged(reg *formats.Registry, name string, data []byte) {
	f, _ := reg.Detect(name, data)
	rs, lints, err := f.Read(name, data, formats.ReadOptions{})
	for _, l := range lints {
		c.lint = append(c.lint, l.String())
	}
	if err != nil {
		c.vs = append(c.vs, unreadable(name, err))
		return
	}
	for i, r := range rs {
		raw, err := agc.Encode(r)
		if err != nil {
			c.vs = append(c.vs, unreadable(name, err))
			continue
		}
		src := fmt.Sprintf("%s (%s)", name, f.Name)
		if len(rs) > 1 {
			src = fmt.Sprintf("%s (%s, answer %d)", name, f.Name, i+1)
		}
		c.addAGC(src, raw)
	}
}

// looksLikeOther reports whether a format other than AGC recognises data.
func looksLikeOther(reg *formats.Registry, data []byte) bool {
	f, err := reg.Detect("", data)
	return err == nil && f.Name != "agc" && f.Name != "sarif"
}

// addAGC validates one AGC document and keeps the responses that decode.
func (c *collected) addAGC(name string, data []byte) {
	c.checks = append(c.checks, validate.Input{File: name, Data: data})
	c.vs = append(c.vs, validate.Bytes(name, data, agc.Limits{})...)
	docs, err := agc.DecodeAll(name, data, agc.Limits{})
	if err != nil {
		return // reported by the validator
	}
	for _, d := range docs {
		if d.Response != nil {
			c.add(d.Where(), d.Response, d.Raw)
			c.agc = append(c.agc, d.Response)
		}
	}
}

// add keeps one gate's answer; a second answer from the same gate replaces
// nothing and is reported.
func (c *collected) add(src string, r *agc.Response, raw []byte) {
	raw = c.stripOwn(src, r, raw)
	if prev, ok := c.source[r.Gate.ID]; ok {
		c.vs = append(c.vs, validate.Violation{Place: diag.Place{File: src, Pointer: "/gate/id"}, Rule: validate.ChainOrder,
			Section: "§9", Severity: validate.SeverityError,
			Message: fmt.Sprintf("gate %q already answered in %s; give one answer per gate (the latest round), or validate the rounds with --chain", r.Gate.ID, prev)})
		return
	}
	c.source[r.Gate.ID] = src
	c.gates = append(c.gates, agc.Doc{Response: r, Raw: raw})
}

// unreadable is a file that holds no gate answer at all.
func unreadable(name string, err error) validate.Violation {
	msg := err.Error()
	var xe *extract.Error
	if errors.As(err, &xe) {
		msg = "no AGC response, no known gate format, and no single agc block: " + xe.Error()
	}
	return validate.Violation{Place: diag.Place{File: name}, Rule: validate.ClassSyntax, Section: "§3", Severity: validate.SeverityError, Message: msg}
}

// relName names a file relative to the workspace when it lies inside it.
func relName(root, file string) string {
	if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return file
}
