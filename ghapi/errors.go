package ghapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"
)

// HTTPError is a failure GitHub answered, with its own message.
type HTTPError struct {
	Op      string
	Status  int
	Message string
}

func (e *HTTPError) Error() string { return fmt.Sprintf("%s: %d %s", e.Op, e.Status, e.Message) }

// wrap names the operation and keeps GitHub's own message and status.
func wrap(op string, err error) error {
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		msg := er.Message
		var details []string
		for _, e := range er.Errors {
			if d := e.Message; d != "" {
				details = append(details, d)
			} else if e.Field != "" {
				details = append(details, e.Field+" "+e.Code)
			}
		}
		if len(details) > 0 {
			msg += ": " + strings.Join(details, "; ")
		}
		return &HTTPError{Op: op, Status: er.Response.StatusCode, Message: msg}
	}
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		return &HTTPError{Op: op, Status: http.StatusForbidden, Message: rl.Message}
	}
	var ab *github.AbuseRateLimitError
	if errors.As(err, &ab) {
		return &HTTPError{Op: op, Status: ab.Response.StatusCode, Message: ab.Message}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// IsReadOnly reports whether err is GitHub refusing a write to a token
// without write permission (a fork's pull request, Dependabot).
func IsReadOnly(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Status == http.StatusForbidden &&
		strings.Contains(he.Message, "Resource not accessible by integration")
}
