// Package cmdenv is what the agc-sarif commands and the Action share of
// the outside world: the environment a command may touch (standard
// streams, variables), the exit codes, reading a named input, and the
// source root through which a checkout's files are read without leaving
// it. It reads files and the streams it is given; nothing else.
package cmdenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// Exit codes, the same for every command and the Action (README, "Exit
// codes").
const (
	ExitOK    = 0 // success; lint may have been printed
	ExitFail  = 1 // the input breaks a rule, or the gate's verdict fails
	ExitUsage = 2 // bad usage, or an input that cannot be read at all
)

// Env is what a command and the Action may touch of the outside world,
// built once by cmd/agc-sarif's main (in the manner of gh's
// cmdutil.Factory) and by each test for itself.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Environ is the whole environment, which the processes a command
	// runs inherit (hook's gate); nil: they inherit none.
	Environ func() []string
	// Version is stamped into the binary at build time.
	Version string
	// Sleep is how a command waits before it asks GitHub again (on
	// Retry-After, or for a lagging head); nil: a real wait. Tests pass
	// one that records the waits (ghtest.Sleeps).
	Sleep func(ctx context.Context, d time.Duration) error
	// Action runs the GitHub Action (internal/action's Main), which
	// package cli does not import; nil: there is no "action" command.
	Action func(ctx context.Context, e *Env) int
	// Runtime tunes the process's runtime (package runtime/debug) while a
	// command does its heaviest work; nil: the commands tune nothing.
	Runtime Runtime
}

// Runtime sets process-wide runtime settings for a command, each until
// the function it returns restores it. main passes runtime/debug's; a
// command never sets them itself, so that tests and other embedders
// running commands in one process are not tuned behind their back.
type Runtime interface {
	// GCPercent sets the garbage collector's target (debug.SetGCPercent).
	GCPercent(percent int) (restore func())
	// MemoryLimit lowers the soft memory limit to at most bytes
	// (debug.SetMemoryLimit); a lower limit already set stays.
	MemoryLimit(bytes int64) (restore func())
}

// GCPercent asks e.Runtime, if any, to set the collector's target.
func (e *Env) GCPercent(percent int) (restore func()) {
	if e.Runtime == nil {
		return func() {}
	}
	return e.Runtime.GCPercent(percent)
}

// MemoryLimit asks e.Runtime, if any, to lower the soft memory limit.
func (e *Env) MemoryLimit(bytes int64) (restore func()) {
	if e.Runtime == nil {
		return func() {}
	}
	return e.Runtime.MemoryLimit(bytes)
}

// ReadInput reads a named input, "-" being standard input, refusing more
// than max bytes (max <= 0: no limit).
func (e *Env) ReadInput(name string, max int64) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = e.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	return ReadAll(name, r)
}

// ReadAll reads all of r, the input name, saying which input an error is
// about once: an error of a file already names it ("read /x: is a
// directory"), any other gets the name.
func ReadAll(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	var pe *fs.PathError
	switch {
	case err == nil:
		return data, nil
	case errors.As(err, &pe):
		return nil, err
	}
	return nil, fmt.Errorf("read %s: %w", DisplayName(name), err)
}

// DisplayName is how an input is named in messages.
func DisplayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// LooksLikeJSON reports whether an input's first non-blank byte opens an
// object or an array.
func LooksLikeJSON(data []byte) bool {
	for _, b := range data {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}
