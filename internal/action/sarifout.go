package action

import (
	"os"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/sarif"
)

// writeSARIFFile writes rs as one SARIF log to path (sarif.Write, GitHub's
// limits on counts included). On an error no file is left.
func writeSARIFFile(path string, rs []*agc.Response, opt sarif.WriteOptions) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = sarif.Write(f, rs, opt)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
