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

// Bounds on what Degrade and WriteAnnotations print: a judged party
// decides how many findings there are, not how long the log is.
const (
	// MaxLogAnnotations is how many findings of a gate WriteAnnotations
	// prints as workflow commands.
	MaxLogAnnotations = 50
	// MaxJobSummary is how much Degrade writes to the job summary; GitHub
	// refuses a step summary over 1 MiB.
	MaxJobSummary = 1000 << 10
)

// Degrade writes every gate's findings as workflow annotations to
// annotations (MaxLogAnnotations a gate, then how many more) and every
// response to the job summary summary (JobSummaries, after
// ReadOnlyNotice): what a run reports when it cannot write
// to GitHub. head places the annotations, as in WriteAnnotations; links
// links the summary's locations. A nil summary writes none: the caller
// writes its own job summary.
func Degrade(annotations, summary io.Writer, gates []agc.Doc, head FileReader, links Links) error {
	if annotations == nil {
		return errors.New(ReadOnlyNotice + ", but no annotation output was given")
	}
	notice := githubactions.Command{Name: "warning", Message: ReadOnlyNotice, Properties: githubactions.CommandProperties{"title": "agc read-only token"}}
	if _, err := fmt.Fprintln(annotations, notice.String()); err != nil {
		return err
	}
	for _, g := range gates {
		if err := WriteAnnotations(annotations, g.Response, head); err != nil {
			return err
		}
	}
	if summary == nil {
		return nil
	}
	_, err := io.WriteString(summary, JobSummaries("> [!WARNING]\n> "+render.Escape(ReadOnlyNotice)+"\n", gates, nil, head, links,
		"every finding is in the SARIF file"))
	return err
}

// WriteAnnotations writes one workflow command per finding (::error for
// blocking, ::warning for advisory) with its file and lines when known,
// for the first MaxLogAnnotations findings, then a notice of how many more
// there are and where they are.
func WriteAnnotations(w io.Writer, r *agc.Response, head FileReader) error {
	for i := range r.Findings {
		if i == MaxLogAnnotations {
			c := githubactions.Command{Name: "notice", Properties: githubactions.CommandProperties{"title": CheckName(r.Gate.ID)},
				Message: fmt.Sprintf("%d more findings of %s are not printed here (at most %d a gate): the SARIF file holds them, and the job summary and the check run %s, when one is posted, list them as far as GitHub's limits allow",
					len(r.Findings)-i, CheckName(r.Gate.ID), MaxLogAnnotations, CheckName(r.Gate.ID))}
			_, err := fmt.Fprintln(w, c.String())
			return err
		}
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

// ErrHeadUnknown is what a FileReader answers when the files of the
// commit reported on cannot be read at all (UnknownHead), as opposed to a
// path that is no file there.
var ErrHeadUnknown = errors.New("the files of the commit reported on cannot be read")

// UnknownHead is the FileReader of a commit whose files cannot be read
// (neither checked out nor in the clone): findings keep the lines their
// locations name, so each still gets its annotation, and no suggestion
// is made.
type UnknownHead struct{}

// ReadFile answers ErrHeadUnknown.
func (UnknownHead) ReadFile(string) ([]byte, error) { return nil, ErrHeadUnknown }

// filePosition is Locate, keeping the path only when it names a file at
// head (when head is known): a location such as "Bash.command" is no file.
// When head cannot be read at all (ErrHeadUnknown), the location's own
// path and lines stand.
func filePosition(f *agc.Finding, head FileReader) Position {
	pos := Locate(f, head)
	if head != nil && pos.Path != "" {
		if _, err := head.ReadFile(pos.Path); err != nil && !errors.Is(err, ErrHeadUnknown) {
			return Position{}
		}
	}
	return pos
}
