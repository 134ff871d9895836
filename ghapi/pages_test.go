package ghapi

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-github/v62/github"
)

// TestPages: every page GitHub links to is read in order, a break reads no
// further page, and a failed read ends the listing with its error.
func TestPages(t *testing.T) {
	book := [][]int{{1, 2}, {3}, {4, 5}}
	boom := errors.New("boom")
	tests := []struct {
		name      string
		failAt    int // page whose read fails, 0 for none
		stopAfter int // items taken before breaking, 0 for all
		want      []int
		reads     []int // pages read
		err       error
	}{
		{"all pages", 0, 0, []int{1, 2, 3, 4, 5}, []int{1, 2, 3}, nil},
		{"a break reads no further page", 0, 2, []int{1, 2}, []int{1}, nil},
		{"a failed read", 2, 0, []int{1, 2}, []int{1, 2}, boom},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := &github.ListOptions{Page: 1}
			var reads, got []int
			var err error
			for v, e := range pages(opt, func() ([]int, *github.Response, error) {
				reads = append(reads, opt.Page)
				if opt.Page == tc.failAt {
					return nil, nil, boom
				}
				resp := &github.Response{}
				if opt.Page < len(book) {
					resp.NextPage = opt.Page + 1
				}
				return book[opt.Page-1], resp, nil
			}) {
				if e != nil {
					err = e
					break
				}
				got = append(got, v)
				if len(got) == tc.stopAfter {
					break
				}
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(reads, tc.reads) || err != tc.err {
				t.Errorf("items %v, pages read %v, err %v; want %v, %v, %v", got, reads, err, tc.want, tc.reads, tc.err)
			}
		})
	}
}
