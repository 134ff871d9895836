package action

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/collect"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/rounds"
	githubactions "github.com/sethvargo/go-githubactions"
)

// Inputs are the Action's inputs (action.yml), parsed and checked.
type Inputs struct {
	agc, sarif  []collect.Pattern // globs, each paired with its gate or not
	diff        []collect.Pattern // fixers' unified diffs, GATE-ID=GLOB as agc and sarif lines
	failOn      string            // block, escalate or never
	failLevel   string            // SARIF level that blocks: error, warning, note, none
	review      switchInput
	check       switchInput
	status      switchInput
	uploadSARIF switchInput
	carry       switchInput
	category    string
	filterMode  review.FilterMode
	scope       []string
	scopeFile   string
	gateConfig  []string
	gates       []string // gate ids to carry
	appID       int64    // the app whose check runs are trusted when carrying
	preview     bool
	dryRun      bool
	token       string
	login       string        // the identity the token posts as
	pr          int           // override for workflow_run on a fork's pull request
	sha         string        // override of the commit to report on
	retryBudget time.Duration // all waiting on rate limits and 5xx in one run; 0: ghapi.DefaultTotalWait
	// rounds (docs/rounds.md)
	budget        int    // the budget a chain the Action numbers opens with; 0: the answer's own, else 3
	escalateTo    string // the login or org/team that decides at the budget, without "@"
	escalateEarly bool   // escalate when a class is still-open in two consecutive rounds
}

// switchInput is a boolean input whose default depends on the event.
type switchInput string

const (
	switchAuto switchInput = "auto"
	switchOn   switchInput = "true"
	switchOff  switchInput = "false"
)

// on resolves the switch with the event's default.
func (s switchInput) on(auto bool) bool {
	if s == switchAuto {
		return auto
	}
	return s == switchOn
}

// inputError is an input the workflow set wrongly.
type inputError struct{ name, msg string }

func (e *inputError) Error() string { return fmt.Sprintf("input %q: %s", e.name, e.msg) }

// InputNames are the inputs of action.yml that agc-sarif reads, each from
// INPUT_<NAME> (upper case, spaces as _, hyphens kept), the variable
// action.yml's step forwards it in. ReadInputs reads these and no other.
// Adding an input touches four places, which internal/repotest's
// TestActionInputs holds together: action.yml's inputs, its step's env,
// this table, and the README's Inputs table (CONTRIBUTING.md, "Add an
// Action input").
var InputNames = []string{
	"agc", "sarif", "diff", "sarif-fail-level", "fail-on",
	"review", "check", "status", "upload-sarif", "category", "filter-mode",
	"carry", "gate", "scope", "scope-file", "app-id", "gate-config",
	"budget", "escalate-to", "escalate-early",
	"preview", "dry-run", "pull-request", "sha", "token", "login", "retry-budget",
}

// ReadInputs reads the INPUT_* variables the runner sets; an error names
// the input set wrongly.
func ReadInputs(getenv func(string) string) (*Inputs, error) {
	a := githubactions.New(githubactions.WithGetenv(getenv))
	given := make(map[string]string, len(InputNames))
	for _, n := range InputNames {
		given[n] = a.GetInput(n)
	}
	var unlisted []string
	c, err := readInputs(func(name string) string {
		v, ok := given[name]
		if !ok {
			unlisted = append(unlisted, name)
		}
		return v
	})
	if len(unlisted) > 0 {
		// a bug of agc-sarif, which every test of the Action meets
		return c, fmt.Errorf("agc-sarif reads the inputs %q, which InputNames does not list: add them there and to action.yml (CONTRIBUTING.md, \"Add an Action input\")", unlisted)
	}
	return c, err
}

// readInputs reads and checks the inputs, each through get, which answers
// the names in InputNames.
func readInputs(get func(name string) string) (*Inputs, error) {
	c := &Inputs{
		category:   get("category"),
		scope:      lines(get("scope")),
		scopeFile:  get("scope-file"),
		gates:      lines(get("gate")),
		gateConfig: lines(get("gate-config")),
		token:      get("token"),
		login:      get("login"),
		sha:        get("sha"),
	}
	var err error
	if c.agc, err = parsePatterns("agc", lines(get("agc"))); err != nil {
		return c, err
	}
	if c.sarif, err = parsePatterns("sarif", lines(get("sarif"))); err != nil {
		return c, err
	}
	if c.diff, err = parsePatterns("diff", lines(get("diff"))); err != nil {
		return c, err
	}
	for _, id := range c.gates {
		if cerr := agc.CheckGateID(id); cerr != nil {
			return c, &inputError{"gate", cerr.Error()}
		}
	}
	pick := func(name, def string, allowed ...string) string {
		v := strings.ToLower(get(name))
		if v == "" {
			return def
		}
		if !slices.Contains(allowed, v) && err == nil {
			err = &inputError{name, fmt.Sprintf("%q is not one of %s", v, strings.Join(allowed, ", "))}
		}
		return v
	}
	c.failOn = pick("fail-on", "block", "block", "escalate", "never")
	c.failLevel = pick("sarif-fail-level", "error", "error", "warning", "note", "none")
	c.filterMode = review.FilterMode(pick("filter-mode", string(review.FilterAdded), review.FilterModes...))
	sw := func(name string) switchInput {
		return switchInput(pick(name, "auto", "auto", "true", "false"))
	}
	c.review, c.check, c.status, c.uploadSARIF, c.carry = sw("review"), sw("check"), sw("status"), sw("upload-sarif"), sw("carry")
	c.preview = pick("preview", "false", "true", "false") == "true"
	c.dryRun = pick("dry-run", "false", "true", "false") == "true"
	c.escalateEarly = pick("escalate-early", "false", "true", "false") == "true"
	// whole reads input name, when given, as a whole number from 1 to max.
	whole := func(name string, max int, what string) (n int) {
		if v := get(name); v != "" && err == nil {
			if _, perr := fmt.Sscanf(v, "%d", &n); perr != nil || n <= 0 || n > max || fmt.Sprint(n) != v {
				err = &inputError{name, fmt.Sprintf("%q is not %s", v, what)}
			}
		}
		return n
	}
	c.budget = whole("budget", 1000, "a number of rounds (1 to 1000)")
	if v := get("escalate-to"); v != "" && err == nil {
		var perr error
		if c.escalateTo, perr = rounds.CheckEscalateTo(v); perr != nil {
			err = &inputError{"escalate-to", perr.Error()}
		}
	}
	c.pr = whole("pull-request", math.MaxInt, "a pull request number")
	maxWait := int(ghapi.MaxRetryBudget / time.Second)
	c.retryBudget = time.Duration(whole("retry-budget", maxWait, fmt.Sprintf("a number of seconds (1 to %d)", maxWait))) * time.Second
	c.appID = int64(whole("app-id", math.MaxInt, "an app id"))
	if err == nil && len(c.agc) == 0 && len(c.sarif) == 0 && len(c.diff) == 0 && len(c.gates) == 0 {
		err = &inputError{"agc", "give the gates' answers: agc (AGC responses or agent messages), sarif (SARIF logs) and/or diff (fixers' diffs), or the gates to carry (gate)"}
	}
	return c, err
}

// pairedGate reports whether a line of the agc, sarif or diff input pairs its
// files with gate id: only a paired gate's answers are bound to a scoped
// fingerprint, so only a paired gate is ever carried.
func (c *Inputs) pairedGate(id string) bool {
	for _, p := range append(append(append([]collect.Pattern(nil), c.agc...), c.sarif...), c.diff...) {
		if p.Gate == id {
			return true
		}
	}
	return false
}

// lines splits a multi-line input into its non-empty lines; a line that
// starts with # is a comment.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// parsePatterns reads the lines of file input name.
func parsePatterns(name string, ls []string) ([]collect.Pattern, error) {
	out := make([]collect.Pattern, 0, len(ls))
	for _, l := range ls {
		p, err := collect.ParsePattern(l)
		if err != nil {
			return nil, &inputError{name, err.Error()}
		}
		out = append(out, p)
	}
	return out, nil
}
