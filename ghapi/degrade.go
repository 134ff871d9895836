package ghapi

import (
	"fmt"
	"io"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/render"
)

// ReadOnlyNotice is said when the token cannot write (a fork's pull
// request, Dependabot): findings go to workflow annotations and the job
// summary instead.
const ReadOnlyNotice = "agc: the token cannot write here (403 Resource not accessible by integration: a pull request from a fork, Dependabot, or a permission missing from the workflow's permissions); findings are reported as workflow annotations and in the job summary instead"

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
		var props []string
		if pos.Path != "" {
			props = append(props, "file="+escapeProperty(pos.Path))
		}
		if pos.Start > 0 {
			props = append(props, fmt.Sprintf("line=%d", pos.Start), fmt.Sprintf("endLine=%d", pos.End))
		}
		props = append(props, "title="+escapeProperty(CheckName(r.Gate.ID)+" "+f.Class))
		msg := f.What + "\n" + f.Why + "\n(" + f.ID + ")"
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(msg)); err != nil {
			return err
		}
	}
	return nil
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
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
