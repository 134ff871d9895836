package cmdenv

import (
	"path/filepath"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/formats"
)

// GateSARIF reads a SARIF log as gates' answers through the format
// registry, the one path github and the Action share: paths are relative
// to root, and lines are read through it as a source root.
func GateSARIF(reg *formats.Registry, name string, data []byte, root, failLevel string) ([]*agc.Response, []diag.Lint, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	f, _ := reg.Lookup("sarif")
	return f.Read(name, data, formats.ReadOptions{FS: MustSourceFS(abs), Root: filepath.ToSlash(abs), FailLevel: failLevel})
}
