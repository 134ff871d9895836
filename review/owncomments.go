package review

import (
	"github.com/google/go-github/v62/github"
)

// OwnComment is a comment an earlier run of this gate wrote, with the
// hash its marker carries.
type OwnComment struct {
	Comment *github.PullRequestComment
	Hash    string
}

// Own indexes what earlier runs of one gate wrote, by marker.
type Own struct {
	Inline     map[string]OwnComment // finding id (MarkerID) -> comment
	File       map[string]OwnComment // path -> file-level comment
	Review     *github.PullRequestReview
	ReviewHash string
	// Dups are later comments with a key already taken (a run retried
	// after a 5xx that had in fact been applied); their threads are resolved.
	Dups []*github.PullRequestComment
}

// IndexOwn reads the markers of this identity's comments and reviews in
// st for gate. Only the first comment per key counts; the latest review
// body does.
func IndexOwn(st *PRState, gate string) Own {
	o := Own{Inline: map[string]OwnComment{}, File: map[string]OwnComment{}}
	for _, cm := range st.Comments {
		ms := ParseMarkers(cm.GetBody())
		if len(ms) == 0 || ms[0].Attrs["gate"] != gate {
			continue
		}
		switch m := ms[0]; m.Kind {
		case MarkFinding:
			o.add(o.Inline, m.Attrs["id"], cm, m.Attrs["hash"])
		case MarkFile:
			o.add(o.File, m.Attrs["path"], cm, m.Attrs["hash"])
		}
	}
	for _, rv := range st.Reviews {
		ms := ParseMarkers(rv.GetBody())
		if len(ms) > 0 && ms[0].Kind == MarkReview && ms[0].Attrs["gate"] == gate {
			o.Review, o.ReviewHash = rv, ms[0].Attrs["hash"]
		}
	}
	return o
}

func (o *Own) add(m map[string]OwnComment, key string, cm *github.PullRequestComment, hash string) {
	if _, dup := m[key]; dup {
		o.Dups = append(o.Dups, cm)
		return
	}
	m[key] = OwnComment{cm, hash}
}
