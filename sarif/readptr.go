package sarif

import "strconv"

// at is a JSON pointer not yet written out: base, then up to eight more
// reference tokens (as deep as a result's fixes go). Reading a result goes a few members deep and seldom
// lints, so its pointers are written out only for a lint.
type at struct {
	base string
	toks [8]string
	n    int
}

// in is the pointer to member key of the value at a.
func (a at) in(key string) at {
	if a.n == len(a.toks) {
		a = at{base: a.String()}
	}
	a.toks[a.n] = key
	a.n++
	return a
}

// idx is the pointer to element i of the array at a.
func (a at) idx(i int) at { return a.in(strconv.Itoa(i)) }

func (a at) String() string {
	s := a.base
	for _, t := range a.toks[:a.n] {
		s = ptr(s, t)
	}
	return s
}
