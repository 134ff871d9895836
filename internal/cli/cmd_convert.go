package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/sarif"
	"github.com/agcgate/agc-action/subject"
)

// convertOptions are the parsed arguments of "agc-sarif convert".
type convertOptions struct {
	from, to   string // "auto" / "" mean detect / the other format
	out        string // "" is standard output
	sourceRoot string
	ask        bool  // --ask, for claude-pre-tool-use
	maxBytes   int64 // --max-bytes
	failLevel  string
	failOn     string   // block, escalate or never (the default: a converter reports)
	gate       string   // --gate: the gate id of inputs that name none (diff, rdjson without a source)
	class      string   // --class: the class of a diff's findings
	version    string   // --gate-version: gate.version of responses that state none
	scope      []string // --scope: subject.scope of responses that state none
	files      []string
}

// runConvert implements "agc-sarif convert [--from F] [--to F] [-o OUT]
// [--source-root DIR] [--fail-level error|warning|note|none] [--fail-on
// block|escalate|never] FILE...". --fail-level picks which SARIF levels
// block, nothing more; --fail-on alone decides the exit. Exit codes: 0
// converted (whatever the verdicts, under the default --fail-on never); 1
// converted, and some response reaches --fail-on (block: block or
// escalate; escalate: escalate); 2 usage, or an input that cannot be read,
// detected or converted, or an output GitHub would reject.
func runConvert(e *Env, args []string) int {
	reg := formats.Default()
	opts, code, ok := parseConvert(e, reg, args)
	if !ok {
		return code
	}
	fsys, root, err := convertSourceRoot(opts.sourceRoot)
	if err != nil {
		return convertFail(e, err)
	}
	var all []*agc.Response
	var fromFormat string
	for _, file := range opts.files {
		data, err := convertInput(e, opts, file, opts.mayStream())
		if err != nil {
			return convertFail(e, err)
		}
		f, err := convertFormat(reg, opts, cmdenv.DisplayName(file), data)
		if err != nil {
			return convertFail(e, err)
		}
		rs, code, done := convertStreamed(e, f, opts, file, data, fsys, root)
		if done {
			return code
		}
		name := f.Name
		if rs == nil {
			if rs, name, err = convertRead(e, f, opts, file, data, fsys, root); err != nil {
				return convertFail(e, err)
			}
		}
		fromFormat = name
		all = append(all, fillIn(rs, opts)...)
	}
	to := opts.to
	if to == "" {
		to = "agc"
		if fromFormat == "agc" {
			to = "sarif"
		}
	}
	if err := convertWrite(e, reg, to, opts.out, all, fsys, opts.ask); err != nil {
		return convertFail(e, err)
	}
	if convertFails(all, opts.failOn) {
		return ExitFail
	}
	return ExitOK
}

func parseConvert(e *Env, reg *formats.Registry, args []string) (convertOptions, int, bool) {
	fs := newFlags(e, "convert", "[--from auto|"+strings.Join(reg.Inputs(), "|")+"] [--to "+strings.Join(reg.Outputs(), "|")+
		"] [-o OUT] [--source-root DIR] [--fail-level error|warning|note|none] [--fail-on block|escalate|never] [--gate ID] [--class CLASS] [--gate-version V] [--scope PATTERN]... FILE...")
	from := newEnum("auto", append([]string{"auto"}, reg.Inputs()...)...)
	to := newEnum("", reg.Outputs()...)
	fail := newEnum("error", "error", "warning", "note", "none")
	fs.Var(from, "from", "input format; auto detects it per file")
	fs.Var(to, "to", "output format (default: sarif for AGC input, agc otherwise)")
	out := fs.String("o", "", "write the output to `OUT` instead of standard output")
	root := fs.String("source-root", convertDefaultRoot(e), "`DIR` the paths in the inputs are relative to (default: $GITHUB_WORKSPACE, else the current directory)")
	fs.Var(fail, "fail-level", "lowest SARIF level that blocks (none: nothing blocks); it does not set the exit status")
	failOn := newEnum("never", "block", "escalate", "never")
	fs.Var(failOn, "fail-on", "exit 1 when a converted verdict is block or escalate (block), escalate (escalate), or never")
	ask := fs.Bool("ask", false, "with --to claude-pre-tool-use: ask the person even for a repair")
	gate := fs.String("gate", "", "the gate `ID` of a diff (default: named after the input) or of every rdjson diagnostic (default: its source)")
	class := fs.String("class", "", "the `CLASS` of a diff's findings (default: the gate id)")
	version := fs.String("gate-version", "", "the gate.version of each response that states none (a diff, rdjson, SARIF without a tool version)")
	var scope []string
	fs.Var((*fpList)(&scope), "scope", "a subject.scope `PATTERN` of each response that states none (what the tool judged); repeat for more")
	maxBytes := fs.Int64("max-bytes", sarif.DefaultMaxBytes, "refuse an input larger than this many bytes")
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return convertOptions{}, code, false
	}
	if len(files) == 0 {
		fmt.Fprintln(e.Stderr, "agc-sarif convert: expected at least one FILE (- for standard input)")
		fs.Usage()
		return convertOptions{}, ExitUsage, false
	}
	if _, err := subject.ParseScope(scope); err != nil {
		_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif convert: --scope: %v", err))
		return convertOptions{}, ExitUsage, false
	}
	if *gate != "" {
		if err := agc.CheckGateID(*gate); err != nil {
			_ = printLine(e.Stderr, fmt.Sprintf("agc-sarif convert: --gate: %v", err))
			return convertOptions{}, ExitUsage, false
		}
	}
	return convertOptions{from: from.String(), to: to.String(), out: *out, sourceRoot: *root,
		failLevel: fail.String(), failOn: failOn.String(), gate: *gate, class: *class, version: *version, scope: scope, ask: *ask, maxBytes: *maxBytes, files: files}, 0, true
}

func convertDefaultRoot(e *Env) string {
	if ws := e.Getenv("GITHUB_WORKSPACE"); ws != "" {
		return ws
	}
	return "."
}

// convertSourceRoot opens the source root: an fs.FS and its absolute slash path.
func convertSourceRoot(dir string) (fs.FS, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", fmt.Errorf("--source-root %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, "", fmt.Errorf("--source-root: %w", err)
	}
	if !st.IsDir() {
		return nil, "", fmt.Errorf("--source-root %s is not a directory", dir)
	}
	fsys, err := cmdenv.SourceFS(abs)
	if err != nil {
		return nil, "", fmt.Errorf("--source-root %s: %w", dir, err)
	}
	return fsys, filepath.ToSlash(abs), nil
}

// convertInput reads one input, refusing one larger than --max-bytes. A
// regular file that may be streamed is read into a buffer of its size:
// io.ReadAll's regrowing would briefly hold it twice over.
func convertInput(e *Env, opts convertOptions, file string, mayStream bool) ([]byte, error) {
	if mayStream && file != "-" {
		if data, ok := readSized(file, opts.maxBytes); ok {
			return data, nil
		}
	}
	data, err := e.ReadInput(file, opts.maxBytes)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > opts.maxBytes {
		return nil, fmt.Errorf("%s: input is larger than the limit of %d bytes (--max-bytes)", cmdenv.DisplayName(file), opts.maxBytes)
	}
	return data, nil
}

// readSized reads a regular file of at most max bytes into a buffer of its
// size; ok is false for anything else (readInput then reads it, and says
// what is wrong).
func readSized(file string, max int64) ([]byte, bool) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > max {
		return nil, false
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	if n, _ := f.Read(make([]byte, 1)); n > 0 {
		return nil, false // it grew while read
	}
	return data, true
}

// streamMemory is the soft memory limit convertStreamed asks for for an input
// of n bytes: 1.75 times n, and room for the runtime. A streamed
// conversion holds little besides its input, so the collector can keep
// its garbage below that; the limit is soft, and a conversion that needs
// more still gets it.
func streamMemory(n int) int64 { return int64(n)*7/4 + 32<<20 }

// mayStream is whether the options allow the streamed path (convertStreamed
// decides the rest): one input, written to a file.
func (o convertOptions) mayStream() bool {
	return len(o.files) == 1 && o.out != "" && o.version == "" && len(o.scope) == 0
}

// fillIn gives each response that states no gate.version or
// subject.scope the one --gate-version and --scope name: what a diff,
// rdjson or a SARIF log without a tool version cannot say itself (lints
// L4.gate-version and L5.scope). What an input states is kept.
func fillIn(rs []*agc.Response, o convertOptions) []*agc.Response {
	for _, r := range rs {
		if r.Gate.Version == "" {
			r.Gate.Version = o.version
		}
		if len(r.Subject.Scope) == 0 && len(o.scope) > 0 {
			r.Subject.Scope = slices.Clone(o.scope)
		}
	}
	return rs
}

// convertFormat is the format an input is read as: --from, or detected.
func convertFormat(reg *formats.Registry, opts convertOptions, name string, data []byte) (formats.Format, error) {
	f, ok := reg.Lookup(opts.from)
	if opts.from == "auto" {
		var err error
		if f, err = reg.Detect(name, data); err != nil {
			return f, whyUndetected(name, data, opts.maxBytes, err)
		}
	} else if !ok || f.Read == nil {
		return f, fmt.Errorf("cannot read format %q", opts.from)
	}
	return f, nil
}

// convertStreamed converts one SARIF log to AGC in a file with sarif.Read
// writing to it (Options.Out), which holds neither the log's results nor
// the response's findings, and reports whether it did (done) and the exit
// code. It does for one input, written with -o to a regular file (or a
// new one), as AGC: standard output takes the buffered path, which checks
// the whole of what it prints (writeOut). The output is written to a
// temporary file beside it and renamed, so that a failure leaves nothing;
// it gets the mode os.WriteFile(…, 0o644) gives on the buffered path: an
// existing file's, else 0644 less the umask. A log of several runs is not
// written: its responses come back (rs) for the buffered writer, read once.
func convertStreamed(e *Env, f formats.Format, opts convertOptions, file string, data []byte, fsys fs.FS, root string) (rs []*agc.Response, code int, done bool) {
	if !opts.mayStream() || f.Name != "sarif" || opts.to != "" && opts.to != "agc" {
		return nil, 0, false
	}
	st, err := os.Lstat(opts.out)
	if err == nil && !st.Mode().IsRegular() || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false
	}
	existing := err == nil
	name := cmdenv.DisplayName(file)
	tmp, err := createBeside(opts.out, 0o644)
	if err != nil {
		return nil, 0, false
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing
	defer e.MemoryLimit(streamMemory(len(data)))()
	got, err := sarif.Read(data, name, sarif.Options{Root: root, FS: fsys, FailLevel: opts.failLevel, Out: tmp})
	if err != nil {
		tmp.Close()
		return nil, convertFail(e, readError(name, f.Name, err)), true
	}
	diag.LocateLints("", data, got.Lints)
	printLints(e, got.Lints)
	err = tmp.Close()
	if !got.Written {
		return append([]*agc.Response{}, got.Responses...), 0, false // not nil: read
	}
	if err == nil && existing {
		err = os.Chmod(tmp.Name(), st.Mode().Perm())
	}
	if err == nil {
		err = os.Rename(tmp.Name(), opts.out)
	}
	if err != nil {
		return nil, convertFail(e, fmt.Errorf("write %s: %w", opts.out, err)), true
	}
	if convertFails(got.Responses, opts.failOn) {
		return nil, ExitFail, true
	}
	return nil, ExitOK, true
}

// createBeside creates a new file for reading and writing in path's
// directory, named "." and path's base and a random suffix, as
// os.CreateTemp does, but with perm less the umask (os.CreateTemp's is
// 0600).
func createBeside(path string, perm fs.FileMode) (*os.File, error) {
	prefix := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".")
	for range 100 {
		f, err := os.OpenFile(prefix+strconv.FormatUint(rand.Uint64(), 36), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("create a file beside %s: %w", path, fs.ErrExist)
}

func convertRead(e *Env, f formats.Format, opts convertOptions, file string, data []byte, fsys fs.FS, root string) ([]*agc.Response, string, error) {
	name := cmdenv.DisplayName(file)
	rs, lints, err := f.Read(name, data, formats.ReadOptions{FS: fsys, Root: root, FailLevel: opts.failLevel, Gate: opts.gate, Class: opts.class})
	printLints(e, lints)
	if err != nil {
		return nil, "", readError(name, f.Name, err)
	}
	return rs, f.Name, nil
}

// readError is the error of reading file as format.
func readError(file, format string, err error) error {
	if _, placed := diag.PlaceOf(err); placed {
		// The error's place comes first, and names the file.
		return fmt.Errorf("%w (read as %s)", err, format)
	}
	return fmt.Errorf("read %s as %s: %w", file, format, err)
}

// whyUndetected: when no format recognises an input, an empty one (or an
// empty array) is said to hold no response, and a JSON-looking one's own
// syntax error (with its byte offset) says more than the list of formats
// tried.
func whyUndetected(name string, data []byte, max int64, detectErr error) error {
	if err := agc.CheckNotEmpty(name, data); err != nil {
		return err // an empty file or [] is no answer in any format
	}
	if !cmdenv.LooksLikeJSON(data) {
		return detectErr
	}
	var de *diag.Error
	if err := agc.CheckSyntax(name, data, agc.Limits{MaxBytes: max}); errors.As(err, &de) && de.Class != agc.ClassDuplicateKey {
		return err
	}
	return detectErr
}

// convertWrite writes the whole output, or nothing when it fails. On
// standard output, text and Markdown are text for people and the other
// formats JSON for a program (writeOut); a file gets the bytes as they are.
func convertWrite(e *Env, reg *formats.Registry, to, out string, rs []*agc.Response, fsys fs.FS, ask bool) error {
	f, ok := reg.Lookup(to)
	if !ok || f.Write == nil {
		return fmt.Errorf("cannot write format %q", to)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, rs, formats.WriteOptions{FS: fsys, Ask: ask}); err != nil {
		return fmt.Errorf("write %s: %w", to, err)
	}
	if out == "" {
		return writeOut(e, buf.Bytes(), to == "text" || to == "markdown")
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}

// convertFails: some response reaches --fail-on (block: verdict block or
// escalate; escalate: escalate only; never: none does).
func convertFails(rs []*agc.Response, failOn string) bool {
	for _, r := range rs {
		switch {
		case failOn == "block" && (r.Verdict == agc.Block || r.Verdict == agc.Escalate),
			failOn == "escalate" && r.Verdict == agc.Escalate:
			return true
		}
	}
	return false
}

func convertFail(e *Env, err error) int {
	printError(e, "convert", err)
	return ExitUsage
}
