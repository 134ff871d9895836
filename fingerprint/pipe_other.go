//go:build !linux

package fingerprint

import "os"

// outputPipe returns a pipe for a child's standard output.
func outputPipe() (r, w *os.File, err error) { return os.Pipe() }
