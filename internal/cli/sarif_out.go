package cli

import (
	"errors"
	"io"

	"github.com/agcgate/agc-action/agc"
)

// writeSARIF writes responses as one SARIF log.
func writeSARIF(w io.Writer, rs []*agc.Response) error {
	return errors.New("SARIF output is not wired yet")
}
