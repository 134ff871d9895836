package ghapi

import (
	"github.com/google/go-github/v62/github"
)

// ownComment is a comment an earlier run of this gate wrote.
type ownComment struct {
	comment *github.PullRequestComment
	hash    string
}

// own indexes what earlier runs of one gate wrote, by marker.
type own struct {
	inline  map[string]ownComment // finding id -> comment
	file    map[string]ownComment // path -> file-level comment
	review  *github.PullRequestReview
	revHash string
	// dups are later comments with a key already taken (a run retried
	// after a 5xx that had in fact been applied); their threads are resolved.
	dups []*github.PullRequestComment
}

// indexOwn reads the markers of this identity's comments and reviews for
// gate. Only the first comment per key counts; the latest review body does.
func indexOwn(st *PRState, gate string) own {
	o := own{inline: map[string]ownComment{}, file: map[string]ownComment{}}
	for _, cm := range st.Comments {
		ms := ParseMarkers(cm.GetBody())
		if len(ms) == 0 || ms[0].Attrs["gate"] != gate {
			continue
		}
		switch m := ms[0]; m.Kind {
		case MarkFinding:
			o.add(o.inline, m.Attrs["id"], cm, m.Attrs["hash"])
		case MarkFile:
			o.add(o.file, m.Attrs["path"], cm, m.Attrs["hash"])
		}
	}
	for _, rv := range st.Reviews {
		ms := ParseMarkers(rv.GetBody())
		if len(ms) > 0 && ms[0].Kind == MarkReview && ms[0].Attrs["gate"] == gate {
			o.review, o.revHash = rv, ms[0].Attrs["hash"]
		}
	}
	return o
}

func (o *own) add(m map[string]ownComment, key string, cm *github.PullRequestComment, hash string) {
	if _, dup := m[key]; dup {
		o.dups = append(o.dups, cm)
		return
	}
	m[key] = ownComment{cm, hash}
}
