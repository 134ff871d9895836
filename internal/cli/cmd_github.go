package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/fingerprint"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/internal/collect"
	"github.com/agcgate/agc-action/internal/ghrun"
	"github.com/agcgate/agc-action/review"
	"github.com/agcgate/agc-action/sarif"
)

// githubOptions are the parsed arguments of "agc-sarif github".
type githubOptions struct {
	owner, repo   string
	pr            int
	sha           string
	uploadSARIF   bool
	review, check bool
	status        bool
	mode          review.FilterMode
	dryRun        bool
	root          string
	login         string
	pollDelay     time.Duration
	retryBudget   time.Duration
	token         string
	detailsURL    string
	summaryPath   string
	files         []string
	bind          githubBind
}

const githubUsage = "--repo OWNER/NAME --pr N --sha SHA [--upload-sarif] [--review] [--check] [--status] [--filter-mode MODE] [--dry-run] [--retry-budget D] " +
	"[--scope P... | --scope-file PATH [--base REV]] [--gate-config PATH]... [GATE-ID=]FILE...\n\n" +
	"Members under agc-action/ in the answers are agc-action's: they are removed, with a warning. A file given as\n" +
	"GATE-ID=FILE answers that gate alone (an answer in it for another gate stops the command). With --scope or\n" +
	"--scope-file, each answer of a paired file about repository content is bound to the scoped fingerprint of\n" +
	"--sha in --root, and the binding record goes into its check run, so that carry --github can carry it; the\n" +
	"answers of unpaired files are posted but never bound.\n"

// runGithub implements "agc-sarif github": it delivers AGC responses (and
// SARIF logs, through the bridge) to GitHub code scanning, a pull request
// review, check runs and commit statuses (docs/github.md).
func runGithub(e *Env, args []string) int {
	opts, code, ok := parseGithub(e, args)
	if !ok {
		return code
	}
	in, err := readGithubInputs(e, opts)
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: %v", err))
		return ExitUsage
	}
	bindings, err := bindGithub(context.Background(), e, opts.bind, opts.root, opts.sha, in.gates, in.paired, in.unpaired)
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: %v", err))
		return ExitUsage
	}
	if err := deliverGithub(context.Background(), e, opts, in, bindings); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: %v", err))
		return ExitUsage
	}
	return ExitOK
}

func parseGithub(e *Env, args []string) (githubOptions, int, bool) {
	fs := newFlags(e, "github", githubUsage)
	rc, err := ghrun.Read(e.Getenv)
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: %v", err))
		return githubOptions{}, ExitUsage, false
	}
	repo := fs.String("repo", rc.Repository, "repository OWNER/NAME (default $GITHUB_REPOSITORY)")
	pr := fs.Int("pr", rc.PR, "pull request number (default from $GITHUB_EVENT_PATH)")
	sha := fs.String("sha", rc.HeadSHA, "head commit (default the event's head, else $GITHUB_SHA)")
	o := githubOptions{}
	fs.BoolVar(&o.uploadSARIF, "upload-sarif", false, "upload to code scanning")
	fs.BoolVar(&o.review, "review", false, "post a pull request review per gate")
	fs.BoolVar(&o.check, "check", false, "post a check run agc/<gate> per gate")
	fs.BoolVar(&o.status, "status", false, "post a commit status agc/<gate> per gate")
	mode := newEnum(string(review.FilterAdded), review.FilterModes...)
	fs.Var(mode, "filter-mode", "which findings are inline: "+strings.Join(review.FilterModes, ", "))
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the requests instead of sending writes")
	fs.StringVar(&o.root, "root", ".", "repository checkout at the head commit (for suggestions and lines)")
	fs.StringVar(&o.login, "login", ghapi.DefaultLogin, "the identity whose earlier comments a rerun takes as its own")
	fs.DurationVar(&o.pollDelay, "poll-delay", 5*time.Second, "wait before the first code scanning status poll (doubles, 5 polls)")
	fs.DurationVar(&o.retryBudget, "retry-budget", ghapi.DefaultTotalWait, "all waiting on rate limits and 5xx answers in one run (then nothing more is sent, and what was not delivered is named)")
	o.bind.flags(fs, rc)
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return o, code, false
	}
	o.pr, o.sha, o.mode, o.files = *pr, *sha, review.FilterMode(mode.String()), files
	o.token = e.Getenv("GITHUB_TOKEN")
	o.summaryPath = e.Getenv("GITHUB_STEP_SUMMARY")
	o.detailsURL = ghrun.RunURL(e.Getenv, *repo)
	if !o.uploadSARIF && !o.review && !o.check && !o.status {
		o.check, o.review = true, o.pr > 0
	}
	if rc.Deleted && o.sha == "" {
		// GITHUB_SHA is then the default branch's head, which nothing was
		// pushed to, and GITHUB_REF the ref that is gone.
		_ = printLine(e.Stderr, "agc-sarif github: skipped: this push deleted "+rc.Ref+", so there is no commit to report on; nothing is posted or uploaded")
		return o, ExitOK, false
	}
	o.owner, o.repo, err = ghrun.SplitRepo("--repo", *repo)
	switch {
	case err != nil:
	case o.sha == "":
		err = errors.New("--sha is required (or GITHUB_SHA, or a pull request event)")
	case len(o.files) == 0:
		err = errors.New("expected at least one FILE (AGC responses or SARIF logs; - for standard input)")
	case o.token == "" && !o.dryRun:
		err = errors.New("GITHUB_TOKEN is not set")
	case o.review && o.pr <= 0:
		err = errors.New("--review needs --pr (or a pull_request event)")
	case o.retryBudget <= 0 || o.retryBudget > ghapi.MaxRetryBudget:
		err = fmt.Errorf("--retry-budget %s: want more than 0 and at most 6h", o.retryBudget)
	default:
		err = o.bind.check()
	}
	if err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: %v", err))
		fs.Usage()
		return o, ExitUsage, false
	}
	return o, 0, true
}

// githubInputs are the responses to deliver and the SARIF logs to upload.
type githubInputs struct {
	gates []agc.Doc
	agc   []*agc.Response // responses given as AGC, uploaded as one SARIF log
	sarif [][]byte        // logs given as SARIF, uploaded as they are
	// paired are the gates whose answer came from a file given as
	// GATE-ID=FILE; only they are bound, so only they can be carried.
	paired map[string]bool
	// unpaired names the files given without a gate id.
	unpaired []string
}

// readGithubInputs collects the answers the files hold as the Action does
// (package collect): an answer it refuses stops the command, each refusal
// named at its place, and nothing is posted.
func readGithubInputs(e *Env, o githubOptions) (githubInputs, error) {
	var in githubInputs
	in.paired = map[string]bool{}
	for _, arg := range o.files {
		if p := collect.ParseArg(arg); p.Gate != "" {
			in.paired[p.Gate] = true
		}
	}
	c := collect.New(func(id string) bool { return in.paired[id] })
	for _, arg := range o.files {
		p := collect.ParseArg(arg)
		pair, name := p.Gate, p.Glob
		if pair == "" {
			in.unpaired = append(in.unpaired, name)
		}
		data, err := e.ReadInput(name, agc.DefaultMaxBytes)
		if err != nil {
			return in, err
		}
		if formats.LooksLikeSARIF(data) {
			runs, lints, err := cmdenv.GateSARIF(cmdenv.DisplayName(name), data, o.root, "")
			if err != nil {
				return in, err
			}
			for _, l := range diag.Bound(lints) {
				_ = printDiag(e.Stderr, "agc-sarif github: ", l.Place.Text("warning: "+l.Message))
			}
			c.SARIF(cmdenv.DisplayName(name), func() ([]byte, error) { return data, nil }, pair, runs)
			in.sarif = append(in.sarif, data)
			continue
		}
		docs, err := agc.DecodeAll(cmdenv.DisplayName(name), data, agc.Limits{})
		if err != nil {
			return in, err
		}
		for _, d := range docs {
			if d.Err != nil {
				return in, d.Err
			}
		}
		c.Decoded(data, docs, pair)
	}
	c.AddUnpairedRuns()
	c.PlaceRefusals()
	for _, l := range c.Lint.Lines() {
		where := l.Where
		if where != "" {
			where += ": "
		}
		_ = printDiag(e.Stderr, "agc-sarif github: ", where+"warning: "+l.Message)
	}
	if len(c.Vs) > 0 {
		for _, v := range c.Vs {
			_ = printDiag(e.Stderr, "agc-sarif github: ", v.Place.Text(v.Rule+": "+v.Message))
		}
		return in, fmt.Errorf("%d answers refused, so nothing is posted", len(c.Vs))
	}
	in.gates, in.agc = c.Gates, c.AGC
	return in, nil
}

func deliverGithub(ctx context.Context, e *Env, o githubOptions, in githubInputs, bindings map[string]carry.Binding) error {
	var dry io.Writer
	if o.dryRun {
		dry = e.Stdout
	}
	c, err := ghapi.NewFromEnv(e.Getenv, ghapi.Config{Owner: o.owner, Repo: o.repo, Token: o.token, Login: o.login,
		Retry: ghapi.RetryPolicy{TotalWait: o.retryBudget}}, dry)
	if err != nil {
		return err
	}
	head := cmdenv.Files{FS: cmdenv.MustSourceFS(o.root)}
	if o.uploadSARIF {
		if err := uploadAll(ctx, e, c, o, in); err != nil {
			return err
		}
	}
	summary, closeSummary, err := summaryWriter(e, o.summaryPath)
	if err != nil {
		return err
	}
	diffs, g := rootDiffs(ctx, o.root)
	if g != nil {
		defer g.Close()
	}
	rep, err := deliver.Deliver(ctx, c, in.gates, deliver.Options{PR: o.pr, HeadSHA: o.sha, Review: o.review, Check: o.check, Status: o.status,
		Plan: review.PlanOptions{Mode: o.mode, Head: head}, DetailsURL: o.detailsURL, Bindings: bindings, Annotations: e.Stdout, Summary: summary,
		Diffs: diffs, Log: e.Stderr, SARIF: review.SARIFPlace{Uploaded: o.uploadSARIF}})
	if len(rep.NotDelivered) > 0 {
		_ = printLine(e.Stderr, "agc-sarif github: not delivered: "+strings.Join(rep.NotDelivered, "; "))
	}
	if cerr := closeSummary(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	reportDelivery(e.Stderr, rep, len(in.gates))
	return nil
}

// rootDiffs reads the diffs GitHub does not give from --root when it is a
// git checkout; nil (those findings go to the review body) when it is not.
// The caller closes the Git it returns.
func rootDiffs(ctx context.Context, root string) (deliver.Diffs, *fingerprint.Git) {
	g := &fingerprint.Git{Dir: root}
	if _, err := g.Commit(ctx, "HEAD"); err != nil {
		_ = g.Close()
		return nil, nil
	}
	return deliver.Clone(g), g
}

func uploadAll(ctx context.Context, e *Env, c *ghapi.Client, o githubOptions, in githubInputs) error {
	logs := in.sarif
	if len(in.agc) > 0 {
		var buf bytes.Buffer
		if err := sarif.Write(&buf, in.agc, sarif.WriteOptions{FS: cmdenv.MustSourceFS(o.root)}); err != nil {
			return err
		}
		logs = append(logs, buf.Bytes())
	}
	for _, data := range logs {
		res, err := c.UploadSARIF(ctx, ghapi.UploadInput{SARIF: data, CommitSHA: o.sha, PR: o.pr, Ref: e.Getenv("GITHUB_REF"),
			CheckoutURI: checkoutURI(e), ToolName: "agc", PollDelay: o.pollDelay})
		if err != nil {
			return err
		}
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif github: code scanning upload %s: %s", res.ID, res.Status))
	}
	return nil
}

func checkoutURI(e *Env) string {
	if ws := e.Getenv("GITHUB_WORKSPACE"); ws != "" {
		return "file://" + ws
	}
	return ""
}

// summaryWriter appends to $GITHUB_STEP_SUMMARY, or writes to stdout
// when it closes: the summary holds the answers' text as it is, so it is
// printed as text for people (writeOut), after the annotations.
func summaryWriter(e *Env, path string) (io.Writer, func() error, error) {
	if path == "" {
		var b bytes.Buffer
		return &b, func() error { return writeOut(e, b.Bytes(), true) }, nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open job summary: %w", err)
	}
	return f, f.Close, nil
}

func reportDelivery(w io.Writer, rep *deliver.Report, gates int) {
	if rep.Degraded {
		fmt.Fprintln(w, "agc-sarif github: "+review.ReadOnlyNotice)
		return
	}
	for id, r := range rep.Reviews {
		_ = printLine(w, fmt.Sprintf("agc-sarif github: review agc/%s: %d new comments in %d reviews, %d edited, %d unchanged, %d resolved, %d reopened",
			id, r.Posted, r.Reviews, r.Edited, r.Unchanged, r.Resolved, r.Unresolved))
	}
	fmt.Fprintf(w, "agc-sarif github: %d gates, %d check runs, %d statuses\n", gates, rep.Checks, rep.Statuses)
}
