package fingerprint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agcgate/agc-action/subject"
)

// Git reads a repository through the git CLI: one long-lived `git cat-file
// --batch` process resolves revisions and reads trees and blobs. It needs
// no history: a shallow clone of the commit is enough. Close it to stop
// the cat-file process.
type Git struct {
	Dir string

	batch  *exec.Cmd
	in     io.WriteCloser
	pipe   *patientReader
	out    *bufio.Reader
	stderr bytes.Buffer
	// commit and tree are the last commit resolved and its tree.
	commit, tree string
}

var _ subject.Repo = (*Git)(nil)

func (g *Git) cmd(ctx context.Context, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "git", append([]string{"-C", g.Dir}, args...)...)
}

// Commit resolves rev to a commit id. It asks the `git cat-file --batch`
// process for rev^{commit}, which also names the commit's tree, so the
// tree listed next is the one of the commit returned.
func (g *Git) Commit(ctx context.Context, rev string) (string, error) {
	started := g.batch == nil
	o, err := g.commitObject(ctx, rev)
	if err == nil {
		err = g.remember(o)
	}
	if err != nil {
		if started {
			g.Close() // a failed resolution leaves no process behind
		}
		return "", fmt.Errorf("revision %s in %s: %w", rev, g.Dir, err)
	}
	return o.oid, nil
}

// Parents returns the parents named in the object of the commit rev, its
// "parent" header lines, which a shallow clone keeps even though it hides
// the parents from rev-parse (the default pull_request checkout is such a
// merge, of depth 1).
func (g *Git) Parents(ctx context.Context, rev string) ([]string, error) {
	o, err := g.commitObject(ctx, rev)
	if err != nil {
		return nil, fmt.Errorf("revision %s in %s: %w", rev, g.Dir, err)
	}
	var parents []string
	for _, line := range strings.Split(string(o.data), "\n") {
		if line == "" {
			break // the headers end at the first blank line
		}
		if p, ok := strings.CutPrefix(line, "parent "); ok {
			parents = append(parents, p)
		}
	}
	return parents, nil
}

// commitObject reads the object of the commit rev names (rev^{commit}).
func (g *Git) commitObject(ctx context.Context, rev string) (object, error) {
	switch {
	case strings.HasPrefix(rev, "-"):
		return object{}, fmt.Errorf("revision %q: must not start with '-'", rev)
	case rev == "" || strings.ContainsAny(rev, "\n\x00"):
		return object{}, fmt.Errorf("revision %q: not a revision git can name", rev)
	}
	o, err := g.request(ctx, rev+"^{commit}")
	if err == nil && o.typ != "commit" {
		err = fmt.Errorf("%s is a %s, not a commit", rev, o.typ)
	}
	return o, err
}

// remember notes the tree of commit object o.
func (g *Git) remember(o object) error {
	tree, ok := bytes.CutPrefix(o.data, []byte("tree "))
	if i := bytes.IndexByte(tree, '\n'); ok && i == len(o.oid) && subject.ValidOID(string(tree[:i])) {
		g.commit, g.tree = o.oid, string(tree[:i])
		return nil
	}
	return fmt.Errorf("commit %s: no tree line", o.oid)
}

// Blob reads a blob by object id through one long-lived `git cat-file
// --batch`.
func (g *Git) Blob(ctx context.Context, oid string) ([]byte, error) {
	if !subject.ValidOID(oid) {
		return nil, fmt.Errorf("object id %q is not hex", oid)
	}
	return g.object(ctx, oid)
}

// File reads the blob at path in rev's tree.
func (g *Git) File(ctx context.Context, rev, path string) ([]byte, error) {
	if strings.ContainsAny(rev+path, "\n\x00") || strings.Contains(rev, ":") {
		return nil, fmt.Errorf("cannot name %s:%s to git cat-file", rev, path)
	}
	b, err := g.object(ctx, rev+":"+path)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, rev, err)
	}
	return b, nil
}

func (g *Git) object(ctx context.Context, name string) ([]byte, error) {
	o, err := g.request(ctx, name)
	if err != nil {
		return nil, err
	}
	if o.typ != "blob" {
		return nil, fmt.Errorf("%s is a %s, not a file", name, o.typ)
	}
	return o.data, nil
}

// object is one object read from `git cat-file --batch`.
type object struct {
	oid, typ string
	data     []byte
}

// request asks the cat-file process for one object by name.
func (g *Git) request(ctx context.Context, name string) (object, error) {
	if err := g.start(ctx); err != nil {
		return object{}, err
	}
	if _, err := io.WriteString(g.in, name+"\n"); err != nil {
		return object{}, g.broken(err)
	}
	return g.read(name, nil)
}

// read reads the answer to a request for name from the cat-file process,
// into buf when it is large enough.
func (g *Git) read(name string, buf []byte) (object, error) {
	header, err := g.out.ReadSlice('\n')
	if err != nil {
		return object{}, g.broken(err)
	}
	f := strings.Fields(string(header))
	switch {
	case len(f) == 2 && f[1] == "missing":
		return object{}, fmt.Errorf("%s: no such object", name)
	case len(f) == 2 && f[1] == "ambiguous":
		return object{}, fmt.Errorf("%s: ambiguous object name", name)
	}
	if len(f) != 3 {
		return object{}, g.broken(fmt.Errorf("unexpected header %q", header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return object{}, g.broken(fmt.Errorf("header %q: bad size", header))
	}
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, size+1)
	}
	data := buf[:size+1]
	if _, err := io.ReadFull(g.out, data); err != nil {
		return object{}, g.broken(fmt.Errorf("%s: %w", name, err))
	}
	return object{oid: f[0], typ: f[1], data: data[:size]}, nil
}

// broken stops the cat-file process after a failed exchange (what it
// writes next cannot be matched to a request) and says why, with what git
// said on standard error.
func (g *Git) broken(err error) error {
	if g.batch != nil {
		g.batch.Process.Kill()
		g.Close()
	}
	if msg := strings.TrimSpace(g.stderr.String()); msg != "" {
		return fmt.Errorf("git cat-file: %w: %s", err, msg)
	}
	return fmt.Errorf("git cat-file: %w", err)
}

func (g *Git) start(ctx context.Context) error {
	if g.batch != nil {
		return nil
	}
	c := g.cmd(ctx, "cat-file", "--batch")
	g.stderr.Reset()
	c.Stderr = &g.stderr
	in, err := c.StdinPipe()
	if err != nil {
		return err
	}
	r, w, err := outputPipe()
	if err != nil {
		in.Close()
		return fmt.Errorf("start git cat-file: %w", err)
	}
	c.Stdout = w
	err = c.Start()
	w.Close()
	if err != nil {
		r.Close()
		return fmt.Errorf("start git cat-file: %w", err)
	}
	g.batch, g.in, g.pipe = c, in, &patientReader{f: r}
	g.out = bufio.NewReaderSize(g.pipe, pipeBuffer)
	return nil
}

// pipeBuffer is the size of the reads from the cat-file process.
const pipeBuffer = 256 << 10

// patientReader reads git's output. While patient, and the last read
// found little in the pipe, it waits a little before reading again, so
// that git's output gathers in the pipe and git writes without waking the
// reader at every write (git flushes each object, in writes of 4 KiB at
// most: for a large tree, waking the reader every time costs git more
// than half again its own time). The walk is patient only while git has
// many requests to answer, so that it seldom waits on the reader.
type patientReader struct {
	f       *os.File
	patient bool
	last    int
}

// patientWait is how long a patient reader waits for output to gather.
const patientWait = 300 * time.Microsecond

func (p *patientReader) Read(b []byte) (int, error) {
	if p.patient && p.last < len(b)/4 {
		time.Sleep(patientWait)
	}
	n, err := p.f.Read(b)
	p.last = n
	return n, err
}

// Close stops the cat-file process, if one was started.
func (g *Git) Close() error {
	if g.batch == nil {
		return nil
	}
	g.in.Close()
	err := g.batch.Wait()
	g.pipe.f.Close()
	g.batch = nil
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil // a cancelled context kills it; nothing was lost
	}
	return err
}
