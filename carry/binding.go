package carry

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/decide"
	"github.com/agcgate/agc-action/subject"
)

// Binding is agc-action's record of what a gate's answer was bound to: the
// scoped fingerprint agc-action computed of the commit reported on, over
// the scope the workflow defines (docs/fingerprint.md, "The binding
// record"). It is kept apart from the gate's answer: agc-action writes it
// at the start of the check run's output.text, beside the embedded
// response, and reads it back only from check runs of the trusted app.
// Nothing in an answer can write it, and only a bound answer is ever
// carried.
type Binding struct {
	Gate        string `json:"gate"`
	GateVersion string `json:"gate_version"`
	// SHA is the commit reported on, the one the gate judged; Commit is
	// the commit whose tree was fingerprinted: SHA, or the merge of SHA
	// with the base that the workflow checked out.
	SHA    string `json:"sha"`
	Commit string `json:"commit"`
	// Fingerprint is the scoped fingerprint of Commit over Scope (the
	// normalised patterns), the gate and GateConfigs (their paths).
	Fingerprint string   `json:"fingerprint"`
	Scope       []string `json:"scope"`
	ScopeFrom   string   `json:"scope_from"` // where the workflow's scope came from, for people
	GateConfigs []string `json:"gate_configs,omitzero"`
	Entries     int      `json:"entries"` // the entries selected: never 0
	// CarriedTo is set on a carried check run: the head it was carried to.
	CarriedTo string `json:"carried_to,omitzero"`
	// Decision is set on the check run of a person's decision
	// (docs/rounds.md, "A person decides"): who chose which option, and
	// why. It is carried with the binding, so a decision holds exactly as
	// a verdict does, and the run's conclusion is the decision's.
	Decision *decide.Record `json:"decision,omitzero"`
}

// Workflow is what the workflow, never the answer, says a gate's verdict
// covers: the scope (the scope-file read from the base branch, or the
// scope input) and the gate's configuration files.
type Workflow struct {
	Scope subject.Scope
	// ScopeFrom says where Scope came from ("scope-file .agc/scope at
	// origin/main"); "" when the workflow defines no scope, and then
	// nothing is bound or carried.
	ScopeFrom   string
	GateConfigs []string
}

// ErrNoScope is why nothing is bound or carried without a scope the
// workflow defines.
var ErrNoScope = errors.New("the workflow defines no scope (set scope or scope-file): an answer's own subject.scope is never trusted to say what it judged")

// Defined reports whether the workflow defines the scope.
func (w Workflow) Defined() bool { return w.ScopeFrom != "" }

// Options is what w fingerprints for gate at rev.
func (w Workflow) Options(gate agc.Gate, rev string) subject.Options {
	return subject.Options{Rev: rev, GateID: gate.ID, GateVersion: gate.Version, Scope: w.Scope, GateConfigs: w.GateConfigs}
}

// Options is what the binding says was fingerprinted, to recompute it at
// its Commit.
func (b Binding) Options() (subject.Options, error) {
	scope, err := subject.ParseScope(b.Scope)
	if err != nil {
		return subject.Options{}, fmt.Errorf("binding scope: %w", err)
	}
	return subject.Options{Rev: b.Commit, GateID: b.Gate, GateVersion: b.GateVersion, Scope: scope, GateConfigs: b.GateConfigs}, nil
}

// Bind binds the answer of gate about commit sha: it fingerprints rev (sha,
// or its merge with the base, whichever the workflow checked out and the
// gate judged) over w. An empty sha is rev's commit. A scope that selects no entry is refused: the
// fingerprint of nothing stays the same whatever changes.
func Bind(ctx context.Context, compute Fingerprinter, w Workflow, gate agc.Gate, sha, rev string) (Binding, error) {
	if !w.Defined() {
		return Binding{}, ErrNoScope
	}
	res, err := compute(ctx, w.Options(gate, rev))
	if err != nil {
		return Binding{}, err
	}
	if res.Count() == 0 {
		return Binding{}, fmt.Errorf("the scope %s (%s) selects no entry at %s: a verdict about nothing would stand whatever changed", quoted(res.Scope.Patterns()), w.ScopeFrom, Short(res.Commit))
	}
	if sha == "" {
		sha = res.Commit // no commit reported on: the checkout's
	}
	var configs []string
	for _, c := range res.Gate.Configs {
		configs = append(configs, c.Path)
	}
	return Binding{Gate: gate.ID, GateVersion: gate.Version, SHA: sha, Commit: res.Commit, Fingerprint: res.Fingerprint,
		Scope: res.Scope.Patterns(), ScopeFrom: w.ScopeFrom, GateConfigs: configs, Entries: res.Count()}, nil
}

// BindAll binds each answer about repository content (a tree subject) in
// docs, reported on sha, fingerprinting rev; it returns the bindings by
// gate id, and for each answer that cannot be bound an error naming its
// gate (that answer is posted unbound and never carried).
func BindAll(ctx context.Context, compute Fingerprinter, w Workflow, sha, rev string, docs []agc.Doc) (map[string]Binding, []error) {
	out := map[string]Binding{}
	var errs []error
	for _, d := range docs {
		r := d.Response
		if r == nil || !TreeSubject(r.Subject.Kind) {
			continue
		}
		b, err := Bind(ctx, compute, w, r.Gate, sha, rev)
		if err != nil {
			errs = append(errs, fmt.Errorf("gate %s: %w", r.Gate.ID, err))
			continue
		}
		out[r.Gate.ID] = b
	}
	return out, errs
}

func quoted(ps []string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = fmt.Sprintf("%q", p)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// bindingOpen begins the binding record in a check run's output.text. The
// record is the first thing in the text, so nothing written after it (the
// embedded response, a note) can pass for one.
const bindingOpen = "<!-- agc:binding v=1 encoding=base64\n"

// EmbedBinding returns the hidden comment that holds b, to put at the
// start of a check run's output.text: the JSON of b in base64 (which
// cannot hold "-->"), 76 characters a line.
func EmbedBinding(b Binding) string {
	data, err := json.Marshal(b)
	if err != nil {
		panic(err) // strings and an int
	}
	enc := base64.StdEncoding.EncodeToString(data)
	var s strings.Builder
	s.WriteString(bindingOpen)
	for len(enc) > 76 {
		s.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	s.WriteString(enc + "\n-->\n")
	return s.String()
}

// ReadBinding reads the binding record at the start of a check run's
// output.text: nil when the text does not start with one, an error when it
// does but the record is not one agc-action writes.
func ReadBinding(text string) (*Binding, error) {
	rest, ok := strings.CutPrefix(text, bindingOpen)
	if !ok {
		return nil, nil
	}
	payload, _, ok := strings.Cut(rest, "-->")
	if !ok {
		return nil, errors.New("binding record: not closed")
	}
	data, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(strings.TrimSpace(payload), "\n", ""))
	if err != nil {
		return nil, fmt.Errorf("binding record: %w", err)
	}
	var b Binding
	if err := json.Unmarshal(data, &b, json.RejectUnknownMembers(true)); err != nil {
		return nil, fmt.Errorf("binding record: %w", err)
	}
	if err := b.check(); err != nil {
		return nil, fmt.Errorf("binding record: %w", err)
	}
	return &b, nil
}

// check refuses a record agc-action does not write; it names commits by
// full object ids only (the only form handed to git fetch).
func (b Binding) check() error {
	switch {
	case b.Gate == "":
		return errors.New("no gate")
	case !subject.ValidOID(b.SHA) || !subject.ValidOID(b.Commit) || (b.CarriedTo != "" && !subject.ValidOID(b.CarriedTo)):
		return fmt.Errorf("commit ids %q, %q, %q: not full object ids", b.SHA, b.Commit, b.CarriedTo)
	case !strings.HasPrefix(b.Fingerprint, "sha256:"):
		return fmt.Errorf("fingerprint %q", b.Fingerprint)
	case b.Entries <= 0:
		return errors.New("the scope selected no entry")
	case b.Decision != nil:
		if err := b.Decision.Check(); err != nil {
			return err
		}
	}
	_, err := b.Options()
	return err
}
