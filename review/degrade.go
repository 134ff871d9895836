package review

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
	githubactions "github.com/sethvargo/go-githubactions"
)

// ReadOnlyNotice is said when the token cannot write (a fork's pull
// request, Dependabot): findings go to workflow annotations and the job
// summary instead.
const ReadOnlyNotice = "agc: the token cannot write here (403 Resource not accessible by integration: a pull request from a fork, Dependabot, or a permission missing from the workflow's permissions); findings are reported as workflow annotations and in the job summary instead"

// Degrade writes every gate's findings as workflow annotations to
// annotations and every response to the job summary summary, with
// ReadOnlyNotice: what a run reports when it cannot write to GitHub. head
// places the annotations, as in WriteAnnotations.
func Degrade(annotations, summary io.Writer, gates []agc.Doc, head FileReader) error {
	if annotations == nil || summary == nil {
		return errors.New(ReadOnlyNotice + ", but no annotation or summary output was given")
	}
	notice := githubactions.Command{Name: "warning", Message: ReadOnlyNotice, Properties: githubactions.CommandProperties{"title": "agc read-only token"}}
	if _, err := fmt.Fprintln(annotations, notice.String()); err != nil {
		return err
	}
	for i, g := range gates {
		if err := WriteAnnotations(annotations, g.Response, head); err != nil {
			return err
		}
		note := ""
		if i == 0 {
			note = ReadOnlyNotice
		}
		if err := WriteJobSummary(summary, g.Response, note); err != nil {
			return err
		}
	}
	return nil
}

// WriteAnnotations writes one workflow command per finding (::error for
// blocking, ::warning for advisory) with its file and lines when known, so
// no finding is dropped.
func WriteAnnotations(w io.Writer, r *agc.Response, head FileReader) error {
	for i := range r.Findings {
		f := &r.Findings[i]
		cmd := "warning"
		if f.Severity == agc.Blocking {
			cmd = "error"
		}
		pos := filePosition(f, head)
		props := githubactions.CommandProperties{"title": CheckName(r.Gate.ID) + " " + f.Class}
		if pos.Path != "" {
			props["file"] = pos.Path
		}
		if pos.Start > 0 {
			props["line"], props["endLine"] = strconv.Itoa(pos.Start), strconv.Itoa(pos.End)
		}
		c := githubactions.Command{Name: cmd, Message: f.What + "\n" + f.Why + "\n(" + f.ID + ")", Properties: props}
		if _, err := fmt.Fprintln(w, c.String()); err != nil {
			return err
		}
	}
	return nil
}

// WriteJobSummary appends r, rendered, to a job summary, after note.
func WriteJobSummary(w io.Writer, r *agc.Response, note string) error {
	if note != "" {
		if _, err := fmt.Fprintf(w, "> [!WARNING]\n> %s\n\n", render.Escape(note)); err != nil {
			return err
		}
	}
	if err := render.Markdown(w, r); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// filePosition is Locate, keeping the path only when it names a file at
// head (when head is known): a location such as "Bash.command" is no file.
func filePosition(f *agc.Finding, head FileReader) Position {
	pos := Locate(f, head)
	if head != nil && pos.Path != "" {
		if _, err := head.ReadFile(pos.Path); err != nil {
			return Position{}
		}
	}
	return pos
}
