package action

import (
	"bufio"
	"os"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
)

// writeSARIFFile writes rs as one SARIF log to path, exactly as
// sarif.Encode(rs, opt) would (limits included), one run at a time
// (sarif.EncodeTo). On an error no file is left.
func writeSARIFFile(path string, rs []*agc.Response, opt sarif.WriteOptions) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = sarif.EncodeTo(w, rs, opt)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
