package extract

import (
	"iter"
	"strings"
)

// lines yields the lines of s, split at LF, CRLF or a lone CR, without
// their endings. A final line ending does not start another line.
func lines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		lf := -1 // index of the next LF at or after pos, or len(s)
		for pos := 0; pos < len(s); {
			if lf < pos {
				lf = len(s)
				if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
					lf = pos + i
				}
			}
			end, next := lf, lf+1
			if i := strings.IndexByte(s[pos:lf], '\r'); i >= 0 {
				end, next = pos+i, pos+i+1
				if next == lf {
					next++
				}
			}
			if !yield(s[pos:end]) {
				return
			}
			pos = next
		}
	}
}
