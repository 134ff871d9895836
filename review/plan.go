package review

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/agcgate/agc-action/agc"
	"github.com/google/go-github/v62/github"
)

// ReviewWrite is what a plan does to the gate's review.
type ReviewWrite int

// What a plan does to the gate's review: nothing, a new review (with the
// new inline comments, if any), or the body of the latest one edited.
const (
	ReviewNone ReviewWrite = iota
	ReviewCreate
	ReviewEditBody
)

// Edit is an earlier comment whose body is to be replaced.
type Edit struct {
	CommentID int64
	Body      string
}

// PlanOptions tune one gate's plan.
type PlanOptions struct {
	Mode FilterMode // default FilterAdded
	// Head reads files at the head commit, for suggestions and positions.
	Head FileReader
	// Login is this identity (REST form): a thread it resolved is
	// reopened when its finding comes back; one a person resolved is not.
	Login string
	// MaxInline is the most inline comments of this gate, at most and by
	// default MaxInlinePerGate.
	MaxInline int
	// Note, when set, is agc-action's own Markdown put first in the review
	// body (an escalation, which mentions who decides), written as it is:
	// never text from an answer. A note the latest review does not hold
	// yet goes into a new review, not an edit, so its mention notifies.
	Note string
	// Links makes the review body's locations links to their lines at
	// the commit reported on; zero: no links.
	Links Links
}

// ReviewPlan is everything one gate's review delivery writes, decided
// before anything is written and within the run's Budget, reconciled with
// what earlier runs wrote: unchanged findings write nothing, changed ones
// are edits, gone ones resolve their threads.
type ReviewPlan struct {
	Gate   string
	Placed []Placed
	// New are the new inline comments; they all go into one new review.
	New []*github.DraftReviewComment
	// Edits are earlier comments whose finding's text changed; Unchanged
	// counts those left as they are.
	Edits     []Edit
	Unchanged int
	// Reopen and Resolve are review threads (GraphQL ids): findings back
	// on a thread this identity resolved, and findings gone.
	Reopen, Resolve []string
	// Review is what happens to the review, with Body and its Hash;
	// ReviewID is the review ReviewEditBody edits.
	Review   ReviewWrite
	ReviewID int64
	Body     string
	Hash     string
	// Inline counts findings shown as inline comments (earlier and new),
	// Listed those in the review body, Unlisted the others, which the
	// check run lists first (PlanCheck). Capped counts the findings the
	// ceiling listed in the body instead of inline.
	Inline, Listed, Unlisted, Capped int
	// DeferredEdits and DeferredThreads are left to a later run by the
	// ceiling: those comments show an earlier text of their finding, those
	// threads stay as they are.
	DeferredEdits, DeferredThreads int
	// NoReview is set when the run's reviews were spent before this gate:
	// it gets no review this run.
	NoReview bool
}

// PlanReview plans gate r's review on the pull request st, taking what it
// writes from b.
func PlanReview(st *PRState, r *agc.Response, opt PlanOptions, b *Budget) *ReviewPlan {
	if opt.Mode == "" {
		opt.Mode = FilterAdded
	}
	if opt.MaxInline <= 0 || opt.MaxInline > MaxInlinePerGate {
		opt.MaxInline = MaxInlinePerGate
	}
	gate := r.Gate.ID
	p := &ReviewPlan{Gate: gate, Placed: Place(r, st.Diffs, opt.Head, opt.Mode), NoReview: b.Reviews <= 0}
	ex := IndexOwn(st, gate)
	kept, want := p.chooseInline(ex, opt.MaxInline, b)
	p.planEdits(st, ex, kept, opt.Login, b)
	p.planThreads(st, ex, want, b)
	p.planBody(r, ex, opt.Note, opt.Links, b)
	return p
}

// chooseInline keeps every finding that already has its inline comment,
// then takes new ones, in the response's order, while the gate's and the
// run's ceilings allow; the others are listed in the review body under
// their file. It returns the kept findings' indexes and every inline key.
func (p *ReviewPlan) chooseInline(ex Own, maxInline int, b *Budget) (kept []int, want map[string]bool) {
	want = map[string]bool{}
	var fresh []int
	for i := range p.Placed {
		pl := &p.Placed[i]
		if pl.Channel != ChannelInline {
			continue
		}
		key := MarkerID(pl.Finding.ID)
		switch _, old := ex.Inline[key]; {
		case want[key]:
			// Two findings with one id (a response that breaks
			// V7.unique-ids) would take turns on one marked comment, run
			// after run: the first stays inline, the others go to the body.
			pl.Channel, pl.Suggest = ChannelBody, false
		case old:
			want[key] = true
			kept = append(kept, i)
		default:
			want[key] = true
			fresh = append(fresh, i)
		}
	}
	room := 0
	if !p.NoReview {
		room = max(0, min(maxInline, b.Inline)-len(kept))
	}
	for k, i := range fresh {
		pl := &p.Placed[i]
		if k < room {
			body, _ := InlineBody(p.Gate, *pl)
			p.New = append(p.New, draft(*pl, body))
			continue
		}
		delete(want, MarkerID(pl.Finding.ID))
		pl.Channel, pl.Suggest, pl.Capped = ChannelFile, false, true
		p.Capped++
	}
	p.Inline = len(kept) + len(p.New)
	b.Inline = max(0, b.Inline-p.Inline)
	return kept, want
}

// planEdits compares each kept comment with its finding's text now:
// unchanged, or an edit while the ceiling allows. A thread this identity
// resolved is reopened, its finding being back.
func (p *ReviewPlan) planEdits(st *PRState, ex Own, kept []int, login string, b *Budget) {
	room := min(MaxEditsPerGate, b.Edits)
	for _, i := range kept {
		pl := p.Placed[i]
		old := ex.Inline[MarkerID(pl.Finding.ID)]
		if t, ok := st.Threads[old.Comment.GetID()]; ok && t.Resolved && SameLogin(t.ResolvedBy, login) {
			p.Reopen = append(p.Reopen, t.ID)
		}
		body, hash := InlineBody(p.Gate, pl)
		switch {
		case old.Hash == hash:
			p.Unchanged++
		case len(p.Edits) < room:
			p.Edits = append(p.Edits, Edit{CommentID: old.Comment.GetID(), Body: body})
		default:
			p.DeferredEdits++
		}
	}
	b.Edits -= len(p.Edits)
}

// planThreads resolves the threads of earlier inline comments whose
// findings are gone, of every earlier file-level comment (their findings
// are now listed in the review body), and of duplicates; reopening comes
// first. What the ceiling leaves is done by a later run.
func (p *ReviewPlan) planThreads(st *PRState, ex Own, want map[string]bool, b *Budget) {
	var resolve []string
	for id, old := range ex.Inline {
		if !want[id] {
			resolve = openThread(st, old.Comment, resolve)
		}
	}
	for _, old := range ex.File {
		resolve = openThread(st, old.Comment, resolve)
	}
	for _, cm := range ex.Dups {
		resolve = openThread(st, cm, resolve)
	}
	sort.Strings(resolve)
	n := min(len(p.Reopen), b.Threads)
	p.DeferredThreads = len(p.Reopen) - n
	p.Reopen = p.Reopen[:n]
	m := min(len(resolve), b.Threads-n)
	p.DeferredThreads += len(resolve) - m
	p.Resolve = resolve[:m]
	b.Threads -= n + m
}

// openThread appends the thread of cm when it is open.
func openThread(st *PRState, cm *github.PullRequestComment, ids []string) []string {
	if t, ok := st.Threads[cm.GetID()]; ok && !t.Resolved {
		return append(ids, t.ID)
	}
	return ids
}

// planBody lists in the review body what is not inline (grouped by file,
// then the findings outside the pull request's files) and decides the
// review's one write.
func (p *ReviewPlan) planBody(r *agc.Response, ex Own, note string, links Links, b *Budget) {
	listed := byFile(p.Placed)
	if p.NoReview {
		p.Unlisted = len(p.Placed) - p.Inline
		return
	}
	p.Body, p.Hash, p.Listed = ReviewBody(r, BodyCounts{Inline: p.Inline, Capped: p.Capped, DeferredEdits: p.DeferredEdits}, listed, note, links)
	p.Unlisted = len(p.Placed) - p.Inline - p.Listed
	current := ex.Review != nil && ex.ReviewHash == p.Hash
	freshNote := note != "" && (ex.Review == nil || !strings.Contains(ex.Review.GetBody(), note))
	switch {
	case len(p.New) > 0:
		p.Review = ReviewCreate
		if current {
			p.Body = NewCommentsBody(p.Gate, len(p.New))
		}
	case freshNote:
		p.Review = ReviewCreate
	case ex.Review != nil && !current:
		p.Review, p.ReviewID = ReviewEditBody, ex.Review.GetID()
	case ex.Review == nil && len(listed) > 0:
		p.Review = ReviewCreate
	}
	if p.Review != ReviewNone {
		b.Reviews--
	}
}

// byFile orders the findings a table lists (the review body's: those in
// the pull request's files that are not inline, then those outside them): those of channel file grouped
// by file, in the order the files first occur, each file's by line (a
// finding on the whole file first), then those of channel body as they
// come. Findings of other channels are left out.
func byFile(ps []Placed) []Placed {
	var out, body []Placed
	byPath := map[string][]Placed{}
	var order []string
	for _, p := range ps {
		switch p.Channel {
		case ChannelFile:
			if byPath[p.Pos.Path] == nil {
				order = append(order, p.Pos.Path)
			}
			byPath[p.Pos.Path] = append(byPath[p.Pos.Path], p)
		case ChannelBody:
			body = append(body, p)
		}
	}
	for _, path := range order {
		in := byPath[path]
		slices.SortStableFunc(in, func(a, b Placed) int { return cmp.Compare(a.Pos.Start, b.Pos.Start) })
		out = append(out, in...)
	}
	return append(out, body...)
}

func draft(p Placed, body string) *github.DraftReviewComment {
	d := &github.DraftReviewComment{Path: github.String(p.Pos.Path), Body: github.String(body),
		Line: github.Int(p.Pos.End), Side: github.String("RIGHT")}
	if p.Pos.Start < p.Pos.End {
		d.StartLine, d.StartSide = github.Int(p.Pos.Start), github.String("RIGHT")
	}
	return d
}

// SameLogin compares a GraphQL login with a REST one: GraphQL names the
// Actions bot "github-actions", REST "github-actions[bot]".
func SameLogin(a, b string) bool {
	return strings.TrimSuffix(a, "[bot]") == strings.TrimSuffix(b, "[bot]")
}
