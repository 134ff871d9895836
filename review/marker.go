package review

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
)

// Hidden markers let a rerun recognise its own comments. A body starts
// with marker lines and the end line; finding text only ever follows the
// end line, and the parser reads markers only before it, so no finding can
// forge a marker (render also escapes every "<!--" in finding text).
//
//	<!-- agc:finding gate=GATE id=ID hash=HASH -->   one per finding carried
//	<!-- agc:file gate=GATE path=PATH hash=HASH -->  a file-level comment
//	<!-- agc:review gate=GATE hash=HASH -->          a review body
//	<!-- agc:end -->
const markerEnd = "<!-- agc:end -->"

// Marker kinds.
const (
	MarkFinding = "finding"
	MarkFile    = "file"
	MarkReview  = "review"
)

// Marker is one parsed marker line.
type Marker struct {
	Kind  string
	Attrs map[string]string
}

var markerLine = regexp.MustCompile(`^<!-- agc:(finding|file|review)((?: [a-z]+=[^ <>]*)+) -->$`)

// FormatMarker writes a marker line. Values are percent-encoded, so no
// value can hold a space, "<", ">" or a line break.
func FormatMarker(kind string, kv ...string) string {
	var b strings.Builder
	b.WriteString("<!-- agc:" + kind)
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString(" " + kv[i] + "=" + escapeValue(kv[i+1]))
	}
	b.WriteString(" -->")
	return b.String()
}

func escapeValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/#:@+,", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{c})))
	}
	return b.String()
}

// ParseMarkers reads the marker lines at the start of a comment body. It
// returns nil unless they are followed by the end line.
func ParseMarkers(body string) []Marker {
	var out []Marker
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == markerEnd {
			return out
		}
		m := markerLine.FindStringSubmatch(line)
		if m == nil {
			return nil
		}
		mk := Marker{Kind: m[1], Attrs: map[string]string{}}
		for _, kv := range strings.Fields(m[2]) {
			k, v, _ := strings.Cut(kv, "=")
			uv, err := url.PathUnescape(v)
			if err != nil {
				return nil
			}
			mk.Attrs[k] = uv
		}
		out = append(out, mk)
	}
	return nil
}

// contentHash is a short hash of the text a comment shows, so a rerun can
// tell a changed finding from an unchanged one. Line numbers are not part
// of it: a finding that only moved is unchanged.
func contentHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// withMarkers prefixes text with marker lines and the end line.
func withMarkers(markers []string, text string) string {
	return strings.Join(markers, "\n") + "\n" + markerEnd + "\n\n" + text
}
