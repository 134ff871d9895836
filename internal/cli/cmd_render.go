package cli

import (
	"bytes"
	"fmt"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/internal/cmdenv"
	"github.com/agcgate/agc-action/render"
)

// renderOptions are the parsed arguments of "agc-sarif render".
type renderOptions struct {
	format string // "text" or "markdown"
	file   string // "-" is standard input
}

// runRender implements "agc-sarif render [--format text|markdown] FILE":
// it shows one response for people as spec §12 asks.
func runRender(e *Env, args []string) int {
	opts, code, ok := parseRender(e, args)
	if !ok {
		return code
	}
	data, err := e.ReadInput(opts.file, agc.DefaultMaxBytes)
	if err != nil {
		printError(e, "render", err)
		return ExitUsage
	}
	r, err := agc.Decode(cmdenv.DisplayName(opts.file), data, agc.Limits{})
	if err != nil {
		printError(e, "render", err)
		return ExitFail
	}
	return writeRendered(e, opts.format, r)
}

func parseRender(e *Env, args []string) (renderOptions, int, bool) {
	fs := newFlags(e, "render", "[--format text|markdown] FILE")
	format := newEnum("text", "text", "markdown")
	fs.Var(format, "format", "output format: text or markdown")
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return renderOptions{}, code, false
	}
	if len(files) != 1 {
		fmt.Fprintln(e.Stderr, "agc-sarif render: expected exactly one FILE (- for standard input)")
		fs.Usage()
		return renderOptions{}, ExitUsage, false
	}
	return renderOptions{format: format.String(), file: files[0]}, 0, true
}

// writeRendered prints r for people; under GitHub Actions inside a
// ::stop-commands:: block, since the answer's text is printed as it is.
func writeRendered(e *Env, format string, r *agc.Response) int {
	var b bytes.Buffer
	var err error
	if format == "markdown" {
		err = render.Markdown(&b, r)
	} else {
		err = render.Text(&b, r)
	}
	if err == nil {
		err = writeOut(e, b.Bytes(), true)
	}
	if err != nil {
		printError(e, "render", fmt.Errorf("write output: %w", err))
		return ExitUsage
	}
	return ExitOK
}
