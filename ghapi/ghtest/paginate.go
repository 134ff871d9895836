package ghtest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// page answers a list request with one page of items and GitHub's Link
// header (first, prev, next, last).
func page[T any](w http.ResponseWriter, r *http.Request, items []T) []T {
	perPage := atoiDefault(r.URL.Query().Get("per_page"), 30)
	perPage = min(max(perPage, 1), 100)
	n := max(atoiDefault(r.URL.Query().Get("page"), 1), 1)
	last := max((len(items)+perPage-1)/perPage, 1)
	var links []string
	link := func(p int, rel string) {
		u := *r.URL
		u.Scheme, u.Host = "http", r.Host
		v := u.Query()
		v.Set("page", strconv.Itoa(p))
		v.Set("per_page", strconv.Itoa(perPage))
		u.RawQuery = v.Encode()
		links = append(links, fmt.Sprintf(`<%s>; rel="%s"`, (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawQuery: u.RawQuery}).String(), rel))
	}
	if n > 1 {
		link(n-1, "prev")
	}
	if n < last {
		link(n+1, "next")
		link(last, "last")
	}
	if n > 1 {
		link(1, "first")
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	lo := min((n-1)*perPage, len(items))
	hi := min(lo+perPage, len(items))
	return items[lo:hi]
}

func atoiDefault(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}
