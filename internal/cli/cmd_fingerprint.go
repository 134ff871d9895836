package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/subject"
)

// fingerprintOptions are the parsed arguments of "agc-sarif fingerprint".
type fingerprintOptions struct {
	repo, rev  string
	scope      []string
	scopeFile  string
	base       string
	gateID     string
	gateVer    string
	configs    []string
	subject    string // a response whose fingerprint to check
	kind       string // tree, tool-call or artifact (without --subject)
	input      string // the tool call or artifact
	explain    bool
	allowEmpty bool // fingerprint a scope that selects no entry
}

const fingerprintUsage = "[--repo DIR] [--rev REV] [--scope PATTERN]... [--scope-file PATH --base REV] " +
	"[--gate-id ID] [--gate-version V] [--gate-config PATH]... [--subject RESPONSE.json] " +
	"[--kind tree|tool-call|artifact --input FILE] [--explain] [--allow-empty]"

// runFingerprint implements "agc-sarif fingerprint": it prints the scoped
// fingerprint of a commit's tree (docs/fingerprint.md), or with --subject
// checks a response's fingerprint against the content it names.
func runFingerprint(e *Env, args []string) int {
	o, code, ok := parseFingerprint(e, args)
	if !ok {
		return code
	}
	defer e.GCPercent(treeGCPercent)()
	if o.subject != "" {
		return checkSubject(e, o)
	}
	if o.kind != "tree" {
		fp, code := inputFingerprint(e, o.input, o.kind, o.scope)
		if code == ExitOK {
			fmt.Fprintln(e.Stdout, fp)
		}
		return code
	}
	g := &fingerprint.Git{Dir: o.repo}
	defer g.Close()
	sc, err := subject.ParseScope(o.scope)
	if o.scopeFile != "" {
		sc, err = subject.ReadScopeFile(context.Background(), g, o.base, o.scopeFile)
	}
	if err != nil {
		return fpFail(e, "fingerprint", err)
	}
	res, err := subject.Compute(context.Background(), g, subject.Options{Rev: o.rev, Scope: sc,
		GateID: o.gateID, GateVersion: o.gateVer, GateConfigs: o.configs, Lazy: !o.explain})
	if err != nil {
		return fpFail(e, "fingerprint", err)
	}
	if res.Count() == 0 && !sc.Whole() && !o.allowEmpty {
		return fpFail(e, "fingerprint", emptyScope(res.Commit, sc))
	}
	fmt.Fprintln(e.Stdout, res.Fingerprint)
	if o.explain {
		if err := explain(e.Stdout, res); err != nil {
			return fpFail(e, "fingerprint", err)
		}
	}
	return ExitOK
}

func parseFingerprint(e *Env, args []string) (*fingerprintOptions, int, bool) {
	o := &fingerprintOptions{}
	fs := newFlags(e, "fingerprint", fingerprintUsage)
	fs.StringVar(&o.repo, "repo", ".", "the repository (a shallow clone is enough)")
	fs.StringVar(&o.rev, "rev", "HEAD", "the commit to fingerprint")
	fs.Var((*fpList)(&o.scope), "scope", "a scope pattern (doublestar glob, ! excludes; JSON pointer for tool calls); repeat for more")
	fs.StringVar(&o.scopeFile, "scope-file", "", "read the scope patterns from this repo path at --base")
	fs.StringVar(&o.base, "base", "", "the revision (the base branch) to read --scope-file from")
	fs.StringVar(&o.gateID, "gate-id", "", "bind the fingerprint to this gate id")
	fs.StringVar(&o.gateVer, "gate-version", "", "bind the fingerprint to this gate version")
	fs.Var((*fpList)(&o.configs), "gate-config", "a repo path of a gate configuration file, read at --rev; repeat for more")
	fs.StringVar(&o.subject, "subject", "", "check this AGC response's subject.fingerprint (- for standard input)")
	kind := newEnum("tree", "tree", "tool-call", "artifact")
	fs.Var(kind, "kind", "what to fingerprint without --subject: tree, tool-call or artifact")
	fs.StringVar(&o.input, "input", "", "the tool call (JSON) or artifact to fingerprint (- for standard input)")
	fs.BoolVar(&o.explain, "explain", false, "list the selected entries")
	fs.BoolVar(&o.allowEmpty, "allow-empty", false, "print the fingerprint of a scope that selects no entry (its files deleted) instead of refusing it")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return nil, code, false
	}
	o.kind = kind.String()
	if err := o.check(len(pos)); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif fingerprint: %v", err))
		fs.Usage()
		return nil, ExitUsage, false
	}
	return o, 0, true
}

func (o *fingerprintOptions) check(nargs int) error {
	switch {
	case nargs > 0:
		return fmt.Errorf("unexpected arguments")
	case o.scopeFile != "" && len(o.scope) > 0:
		return fmt.Errorf("--scope and --scope-file exclude each other")
	case (o.scopeFile == "") != (o.base == ""):
		return fmt.Errorf("--scope-file and --base go together: the scope is read from the base branch")
	case o.subject != "" && (len(o.scope) > 0 || o.scopeFile != "" || o.gateID != "" || o.gateVer != ""):
		return fmt.Errorf("with --subject, the scope and the gate come from the response")
	case o.kind != "tree" && o.subject == "" && o.input == "":
		return fmt.Errorf("--kind %s needs --input", o.kind)
	}
	return nil
}

// emptyScope is the error of a scope that selects no entry of commit: most
// often a directory named as it is (validate, validate/), which matches
// the path validate alone, not what is under it. It suggests the first
// such pattern as DIR/**.
func emptyScope(commit string, sc subject.Scope) error {
	msg := fmt.Sprintf("the scope selects no entry of commit %s", commit)
	for _, p := range sc.Patterns() {
		if strings.HasPrefix(p, "!") || strings.ContainsAny(p, `*?[{\`) {
			continue
		}
		dir := strings.TrimSuffix(p, "/")
		msg += fmt.Sprintf("; did you mean %q? (a pattern matches whole paths, so %q does not select the files under %s/)", dir+"/**", p, dir)
		break
	}
	return fmt.Errorf("%s; --allow-empty prints the fingerprint of the empty selection", msg)
}

// inputFingerprint fingerprints a tool call or an artifact (kind) read
// from the file name, a tool call over the pointers of scope.
func inputFingerprint(e *Env, name, kind string, scope []string) (string, int) {
	if name == "" {
		fmt.Fprintf(e.Stderr, "agc-sarif fingerprint: a %s subject needs --input\n", kind)
		return "", ExitUsage
	}
	data, err := e.ReadInput(name, 0)
	if err != nil {
		return "", fpFail(e, "fingerprint", err)
	}
	if kind == "artifact" || kind == agc.SubjectArtifact {
		return subject.Artifact(data), ExitOK
	}
	fp, err := subject.ToolCall(data, scope)
	if err != nil {
		return "", fpFail(e, "fingerprint", fmt.Errorf("%s: %w", cmdenv.DisplayName(name), err))
	}
	return fp, ExitOK
}

// checkSubject recomputes a response's fingerprint over its own scope.
func checkSubject(e *Env, o *fingerprintOptions) int {
	r, code := readResponse(e, "fingerprint", o.subject)
	if r == nil {
		return code
	}
	name := cmdenv.DisplayName(o.subject)
	var got string
	var res *subject.Result
	switch r.Subject.Kind {
	case agc.SubjectToolCall, agc.SubjectArtifact:
		if got, code = inputFingerprint(e, o.input, r.Subject.Kind, r.Subject.Scope); code != ExitOK {
			return code
		}
	default:
		if res, code = subjectTree(e, "fingerprint", name, r, o.repo, o.rev, o.configs); res == nil {
			return code
		}
		got = res.Fingerprint
	}
	if got != r.Subject.Fingerprint {
		_ = printLine(e.Stderr, fmt.Sprintf("%s: /subject/fingerprint is %s, but the content in its scope %s: the verdict is about other content",
			logsafe.Name(name), r.Subject.Fingerprint, describeAt(got, res)))
		return ExitFail
	}
	_ = printLine(e.Stdout, fmt.Sprintf("%s: /subject/fingerprint %s matches the content in its scope%s", logsafe.Name(name), got, commitNote(res)))
	if o.explain && res != nil {
		if err := explain(e.Stdout, res); err != nil {
			return fpFail(e, "fingerprint", err)
		}
	}
	return ExitOK
}

// subjectTree computes the fingerprint of a tree subject of r at rev, over
// r's own scope and bound to r's gate.
func subjectTree(e *Env, cmd, name string, r *agc.Response, repo, rev string, configs []string) (*subject.Result, int) {
	if !carry.TreeSubject(r.Subject.Kind) {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif %s: %s: /subject/kind %s has no fingerprint this tool can recompute", cmd, name, logsafe.Quote(r.Subject.Kind)))
		return nil, ExitUsage
	}
	sc, err := subject.ParseScope(r.Subject.Scope)
	if err != nil {
		return nil, fpFail(e, cmd, fmt.Errorf("%s: /subject/scope: %w", name, err))
	}
	g := &fingerprint.Git{Dir: repo}
	defer g.Close()
	res, err := subject.Compute(context.Background(), g, subject.Options{Rev: rev, Scope: sc,
		GateID: r.Gate.ID, GateVersion: r.Gate.Version, GateConfigs: configs, Lazy: true})
	if err != nil {
		return nil, fpFail(e, cmd, err)
	}
	return res, ExitOK
}

func describeAt(fp string, res *subject.Result) string {
	if res == nil {
		return "has " + fp
	}
	return fmt.Sprintf("at %s has %s", res.Commit, fp)
}

func commitNote(res *subject.Result) string {
	if res == nil {
		return ""
	}
	return fmt.Sprintf(" at %s (%d entries)", res.Commit, res.Count())
}

// readResponse reads and strictly decodes one AGC response.
func readResponse(e *Env, cmd, file string) (*agc.Response, int) {
	data, err := e.ReadInput(file, agc.DefaultMaxBytes)
	if err != nil {
		return nil, fpFail(e, cmd, err)
	}
	r, err := agc.Decode(cmdenv.DisplayName(file), data, agc.Limits{})
	if err != nil {
		return nil, fpFail(e, cmd, err)
	}
	return r, ExitOK
}

// explain lists what a fingerprint covers: commit, scope, gate, entries.
// Patterns, the gate and paths come from the response or the tree, the
// judged party's: they are quoted (paths when not plain, logsafe.Name).
func explain(w io.Writer, res *subject.Result) error {
	t, err := res.Entries()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, "commit %s\n", res.Commit)
	if res.Scope.Whole() {
		fmt.Fprintln(bw, "scope (the whole tree)")
	} else {
		fmt.Fprintf(bw, "scope %s\n", quoteAll(res.Scope.Patterns()))
	}
	fmt.Fprintf(bw, "gate id %s version %s\n", logsafe.Quote(res.Gate.ID), logsafe.Quote(res.Gate.Version))
	for _, c := range res.Gate.Configs {
		fmt.Fprintf(bw, "gate config sha256:%x %s\n", c.SHA256, logsafe.Name(c.Path))
	}
	for _, en := range t.Selected {
		fmt.Fprintln(bw, en.String())
	}
	fmt.Fprintf(bw, "%d of %d entries selected\n", len(t.Selected), len(t.All))
	return nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = logsafe.Quote(s)
	}
	return strings.Join(q, " ")
}

// fpFail reports an error that keeps a command from running: exit 2.
func fpFail(e *Env, cmd string, err error) int {
	_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif %s: %v", cmd, err))
	return ExitUsage
}

// fpList is a repeatable string flag.
type fpList []string

func (l *fpList) String() string { return strings.Join(*l, " ") }

func (l *fpList) Set(s string) error {
	*l = append(*l, s)
	return nil
}
