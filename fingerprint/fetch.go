package fingerprint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/agcgate/agc-action/subject"
)

// HasCommit reports whether the clone holds the commit whose full object
// id is sha (and so its tree: a shallow clone keeps the trees of the
// commits it has).
func (g *Git) HasCommit(ctx context.Context, sha string) bool {
	if !subject.ValidOID(sha) {
		return false
	}
	o, err := g.commitObject(ctx, sha)
	return err == nil && o.oid == sha
}

// FetchCommit fetches the commit whose full object id is sha from remote
// (a remote's name, such as origin), with its tree, so that HasCommit
// holds and the commit can be fingerprinted: `git fetch --no-tags
// --depth=1 REMOTE SHA` in a shallow clone, without --depth in a full one
// (which --depth would make shallow). No ref is updated. Git never
// prompts for credentials. Only an id and a plain remote name reach git's
// command line.
func (g *Git) FetchCommit(ctx context.Context, remote, sha string) error {
	switch {
	case !subject.ValidOID(sha):
		return fmt.Errorf("fetch %q: not a full object id", sha)
	case remote == "" || strings.HasPrefix(remote, "-") || strings.ContainsAny(remote, ":/\\ \t\n\x00"):
		return fmt.Errorf("fetch from %q: not the name of a remote", remote)
	}
	args := []string{"fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head"}
	if out, err := g.cmd(ctx, "rev-parse", "--is-shallow-repository").Output(); err == nil && strings.TrimSpace(string(out)) == "true" {
		args = append(args, "--depth=1")
	}
	c := g.cmd(ctx, append(args, remote, sha)...)
	c.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("git fetch %s %s: %w: %s", remote, sha, err, firstLine(bytes.TrimSpace(out)))
	}
	// A cat-file process started before the fetch may not look at the
	// pack it added: the next request starts a new one.
	return g.Close()
}
