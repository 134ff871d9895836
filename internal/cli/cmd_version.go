package cli

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// runVersion implements "agc-sarif version" (and --version, -v): the
// version the binary was stamped with (main.version, through Main), else
// the module version the build recorded (go install …@vX.Y.Z), and the
// commit, when the build recorded one.
func runVersion(e *Env, args []string) int {
	if code, ok := noArgs(e, newFlags(e, "version", ""), args); !ok {
		return code
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(e.Stdout, versionLine(e.Version, info))
	return ExitOK
}

// versionLine is "agc-sarif VERSION", with " (commit REV[, modified])"
// when the build recorded its commit and main did not stamp one (main
// passes "VERSION (COMMIT)" when built with -X main.commit). A stamped version wins; "dev" or none
// gives way to the module's version, unless that is "(devel)".
func versionLine(stamped string, info *debug.BuildInfo) string {
	v := stamped
	var rev, dirty string
	if info != nil {
		if (v == "" || v == "dev") && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = ", modified"
				}
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	line := "agc-sarif " + v
	if rev != "" && !strings.Contains(stamped, "(") { // main stamps "VERSION (COMMIT)" itself
		line += " (commit " + rev + dirty + ")"
	}
	return line
}
