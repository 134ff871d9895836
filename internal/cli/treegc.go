package cli

import "runtime/debug"

// treeGC raises the garbage collector's target while a command reads a
// whole commit tree, and returns the function that restores it. Reading
// 100,000 entries builds a heap of about 20 MB that lives until the
// command ends; at the default target the collector runs several cycles
// over it, and on a loaded machine its busy-waiting doubled the wall time
// (scripts/bench-fingerprint.sh: 1.4-2.0x git ls-tree at GOGC=100,
// 1.1-1.3x at 400). The process is short-lived, so the memory is cheap.
func treeGC() (restore func()) {
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}
