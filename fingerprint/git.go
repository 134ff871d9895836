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
)

// Repo is what the fingerprint reads of a repository.
type Repo interface {
	// Commit resolves rev to a commit's object id.
	Commit(ctx context.Context, rev string) (string, error)
	// Tree lists the commit's tree recursively (files, symlinks, gitlinks).
	Tree(ctx context.Context, commit string) ([]Entry, error)
	// Blob returns a blob's bytes.
	Blob(ctx context.Context, oid string) ([]byte, error)
	// File returns the bytes of the blob at path in rev's tree.
	File(ctx context.Context, rev, path string) ([]byte, error)
}

// Git reads a repository through the git CLI. It needs no history: a
// shallow clone of the commit is enough. Close it to stop the cat-file
// process it may start.
type Git struct {
	Dir string

	batch *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
}

var _ Repo = (*Git)(nil)

func (g *Git) cmd(ctx context.Context, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "git", append([]string{"-C", g.Dir}, args...)...)
}

func (g *Git) run(ctx context.Context, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	c := g.cmd(ctx, args...)
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s in %s: %s", strings.Join(args, " "), g.Dir, orErr(stderr.String(), err))
	}
	return out, nil
}

// Commit resolves rev to a commit id.
func (g *Git) Commit(ctx context.Context, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q: must not start with '-'", rev)
	}
	out, err := g.run(ctx, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Tree lists commit's tree with `git ls-tree -r -z --full-tree`. git
// writes the listing to an unnamed temporary file rather than a pipe: a
// pipe makes it wait on the reader thousands of times for a large tree, a
// file does not, and its size then says how much to read in one piece.
func (g *Git) Tree(ctx context.Context, commit string) ([]Entry, error) {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", commit}
	f, err := os.CreateTemp("", "agc-ls-tree-*")
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	defer func() {
		f.Close()
		os.Remove(f.Name())
	}()
	c := g.cmd(ctx, args...)
	var stderr bytes.Buffer
	c.Stdout, c.Stderr = f, &stderr
	if err := c.Run(); err != nil {
		return nil, fmt.Errorf("git %s in %s: %s", strings.Join(args, " "), g.Dir, orErr(stderr.String(), err))
	}
	es, err := readListing(f)
	if err != nil {
		return nil, fmt.Errorf("%s: commit %s: %w", g.Dir, commit, err)
	}
	return es, nil
}

// readListing parses the listing git wrote to f.
func readListing(f *os.File) ([]Entry, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("ls-tree output: %w", err)
	}
	var text strings.Builder
	text.Grow(int(st.Size()))
	if _, err := io.Copy(&text, io.NewSectionReader(f, 0, st.Size())); err != nil {
		return nil, fmt.Errorf("ls-tree output: %w", err)
	}
	return parseLsTree(text.String())
}

func orErr(msg string, err error) string {
	if msg = strings.TrimSpace(msg); msg != "" {
		return msg
	}
	return err.Error()
}

// Blob reads a blob by object id through one long-lived `git cat-file
// --batch`.
func (g *Git) Blob(ctx context.Context, oid string) ([]byte, error) {
	if !validOID(oid) {
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
	if err := g.start(ctx); err != nil {
		return nil, err
	}
	if _, err := io.WriteString(g.in, name+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := g.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return nil, fmt.Errorf("%s: no such object", name)
	}
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git cat-file: header %q: %w", header, err)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(g.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file: %s: %w", name, err)
	}
	if f[1] != "blob" {
		return nil, fmt.Errorf("%s is a %s, not a file", name, f[1])
	}
	return data[:size], nil
}

func (g *Git) start(ctx context.Context) error {
	if g.batch != nil {
		return nil
	}
	c := g.cmd(ctx, "cat-file", "--batch")
	in, err := c.StdinPipe()
	if err != nil {
		return err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return fmt.Errorf("start git cat-file: %w", err)
	}
	g.batch, g.in, g.out = c, in, bufio.NewReader(out)
	return nil
}

// Close stops the cat-file process, if one was started.
func (g *Git) Close() error {
	if g.batch == nil {
		return nil
	}
	g.in.Close()
	err := g.batch.Wait()
	g.batch = nil
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil // a cancelled context kills it; nothing was lost
	}
	return err
}

// Compute fingerprints with g; see Compute.
func (g *Git) Compute(ctx context.Context, o Options) (*Result, error) {
	return Compute(ctx, g, o)
}
