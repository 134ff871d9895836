package review

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// A path and a rule are the judged party's: in a table row they may close
// a link's destination early, add a link of their own, or break out of
// their cell.
func TestLocationLinkHostilePaths(t *testing.T) {
	for _, path := range []string{
		"a.go",
		"a) [x](javascript:alert(1)",
		"a.go>\n<script>alert(1)</script>",
		"dir with space/a b.go",
		"a|b.go",
		"a`b.go",
		"a\\b.go",
		"@octocat/#1.go",
	} {
		f := finding("lint", "x", path, agc.Advisory)
		f.Class = "rule|" + path
		md := tableHead("Location") + tableRow("lint", Placed{Finding: &f, Pos: Position{Path: path, Start: 3, End: 4}, Channel: ChannelBody}, looksLinks, false)
		var h strings.Builder
		if err := gfm.Convert([]byte(md), &h); err != nil {
			t.Fatal(err)
		}
		html := h.String()
		hrefs := regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(html, -1)
		if len(hrefs) != 1 || !strings.HasPrefix(hrefs[0][1], "https://github.com/octo/looks/blob/4b825dc642cb6eb9a060e54bf8d69288fbee4904/") || !strings.HasSuffix(hrefs[0][1], "#L3-L4") {
			t.Errorf("path %q: links %v in %s", path, hrefs, html)
		}
		if strings.Contains(html, "<script") || strings.Count(html, "<td>") != 4 {
			t.Errorf("path %q breaks out of its cell: %s", path, html)
		}
	}
}
