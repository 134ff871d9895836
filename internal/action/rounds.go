package action

import (
	"context"
	"fmt"
	"slices"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/carry"
	"github.com/agcgate/agc-action/deliver"
	"github.com/agcgate/agc-action/diag"
	"github.com/agcgate/agc-action/ghapi"
	"github.com/agcgate/agc-action/internal/collect"
	"github.com/agcgate/agc-action/internal/logsafe"
	"github.com/agcgate/agc-action/rounds"
	"github.com/agcgate/agc-action/validate"
)

// countRounds makes each answer the next round of its gate's chain on the
// pull request (docs/rounds.md): the chain is read back from the gate's
// trusted check runs on the earlier heads; an answer that says round 1 is
// numbered, one that counts its rounds is checked (each broken rule a
// finding of agc-validate), and a round that blocks at its budget
// escalates. It returns the escalation notes by gate id. Without a pull
// request, or a client to read the chain with, answers stay as their
// gates numbered them.
func (r *actionRun) countRounds(ctx context.Context, gh *ghapi.Client, why string, c *collect.Set) map[string]string {
	if r.rc.PR <= 0 || len(c.Gates) == 0 {
		return nil
	}
	if gh == nil {
		r.warn("rounds are not counted (" + why + "): each answer is posted as its gate numbered it")
		return nil
	}
	p := rounds.Policy{Budget: r.cfg.budget, EscalateTo: r.cfg.escalateTo, EscalateEarly: r.cfg.escalateEarly}
	notes := map[string]string{}
	heads := &headOrder{Reader: deliver.CarryRuns(gh), gh: gh, head: r.rc.HeadSHA}
	for i, d := range c.Gates {
		id := d.Response.Gate.ID
		ch, err := rounds.Read(ctx, heads, rounds.ReadOptions{Gate: id, AppID: r.cfg.appID, Head: r.rc.HeadSHA,
			Before: r.rc.BeforeSHA, PR: r.rc.PR, Like: d.Response})
		if err != nil {
			r.warn(fmt.Sprintf("gate %s: its earlier rounds cannot be read, so its answer is posted as its gate numbered it: %v", id, err))
			continue
		}
		if heads.away != "" {
			ch.Notes = append(ch.Notes, heads.away)
		}
		for _, n := range ch.Notes {
			fmt.Fprintf(r.e.Stdout, "rounds %s: %s\n", logsafe.Name(id), logsafe.Line(n))
		}
		nx, err := rounds.Follow(ch, d, p)
		if err != nil {
			r.warn(fmt.Sprintf("gate %s: %v", id, err))
			continue
		}
		if nx.Response != d.Response {
			// A changed round embeds what agc.Encode writes of it, which
			// nx.Raw is: the check run encodes it when it is posted, so
			// that the gates' encodings are not all held at once.
			c.Gates[i] = agc.Doc{Response: nx.Response}
		}
		for _, v := range nx.Violations {
			c.Vs = append(c.Vs, placeIn(c, id, v))
		}
		if e := nx.Escalation; e != nil {
			notes[id] = e.Note()
		}
		fmt.Fprintf(r.e.Stdout, "rounds %s: %s\n", logsafe.Name(id), logsafe.Line(roundLine(nx, ch)))
	}
	return notes
}

// placeIn places a violation of a gate's round, whose pointer is into its
// answer, in the file the answer came from.
func placeIn(c *collect.Set, id string, v validate.Violation) validate.Violation {
	if at, ok := c.At[id]; ok {
		v.Place = at(v.Pointer)
	} else {
		v.Place = diag.Place{File: c.Source[id], Pointer: v.Pointer}
	}
	return v
}

// roundLine says, for the log, what round an answer became.
func roundLine(nx *rounds.Next, ch *rounds.Chain) string {
	r := nx.Response
	s := fmt.Sprintf("round %d of %d", r.Attempt.N, r.Attempt.Budget)
	if nx.Numbered {
		k := map[string]int{}
		for _, f := range r.Findings {
			k[f.Status]++
		}
		s += fmt.Sprintf(" (numbered by agc-action after %d earlier round(s) of the chain): %d new, %d still-open, %d regressed, %d carried",
			len(ch.Rounds), k[agc.StatusNew], k[agc.StatusStillOpen], k[agc.StatusRegressed], len(r.Carried))
	} else {
		s += fmt.Sprintf(" (counted by the gate, checked against %d earlier round(s)): %d rule(s) broken", len(ch.Rounds), len(nx.Violations))
	}
	if e := nx.Escalation; e != nil {
		s += "; escalates: " + e.Text()
	}
	return s
}

// headOrder numbers rounds by the order of the heads, whatever order the
// runs finish in: rounds.Read reads the rounds of the commits GitHub lists
// before the run's head. A head that is not listed is either the pull
// request's head past the 250 commits GitHub lists (every listed commit is
// older) or a head force-pushed away, whose run may finish after the runs
// of the newer history: those commits are not before it, so its earlier
// rounds are read from the event's before alone, and away says so.
type headOrder struct {
	rounds.Reader
	gh   *ghapi.Client
	head string
	away string // why the listed commits were not read, once
}

func (h *headOrder) PullRequestCommits(ctx context.Context, number int) ([]string, error) {
	commits, err := h.Reader.PullRequestCommits(ctx, number)
	if err != nil || slices.Contains(commits, h.head) {
		return commits, err
	}
	info, err := h.gh.Pull(ctx, number)
	if err != nil {
		return nil, err
	}
	if info.HeadSHA == "" || info.HeadSHA == h.head {
		return commits, nil
	}
	h.away = fmt.Sprintf("%s is no longer among the pull request's commits (its head is now %s): the rounds of the newer commits are not before it, "+
		"so its earlier rounds are read from the event's before alone", carry.Short(h.head), carry.Short(info.HeadSHA))
	return nil, nil
}
