package cli

import (
	"io"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/formats"
	"github.com/agcgate/agc-action/internal/cmdenv"
)

// writeSARIF writes responses as one SARIF log through the bridge, which
// checks GitHub's limits before writing. Lines resolve against the
// current directory.
func writeSARIF(w io.Writer, rs []*agc.Response) error {
	f, _ := formats.Default().Lookup("sarif")
	return f.Write(w, rs, formats.WriteOptions{FS: cmdenv.MustSourceFS(".")})
}
