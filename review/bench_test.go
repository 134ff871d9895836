package review

import (
	"testing"

	"github.com/agcgate/agc-action/agc"
)

func BenchmarkParsePatch(b *testing.B) {
	var patch string
	for k := 0; k < 50; k++ {
		patch += "@@ -" + itoaT(k*20+1) + ",7 +" + itoaT(k*20+1) + ",8 @@\n a\n b\n c\n-d\n+e\n+f\n g\n h\n i\n"
	}
	patch = patch[:len(patch)-1]
	b.SetBytes(int64(len(patch)))
	for b.Loop() {
		if _, err := ParsePatch(patch); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanCheckIssue24 plans the check run of issue 24's gate: 2,000
// findings, one a file, 1,800 of them not in the review, and a response
// too large to embed.
func BenchmarkPlanCheckIssue24(b *testing.B) {
	fs := manyFindings("lint", 2000, "What is wrong with this line.")
	r := response("lint", agc.Block, fs...)
	p := &ReviewPlan{Gate: "lint", Placed: Place(r, nil, nil, FilterAdded), Inline: 200, Unlisted: 1800}
	for i := range p.Placed[:200] {
		p.Placed[i].Channel = ChannelInline
	}
	links := Links{Server: "https://github.com", Repo: "octo/big", SHA: "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}
	raw := unembeddable()
	for b.Loop() {
		PlanCheck(r, CheckOptions{Plan: p, Raw: raw, Links: links, SARIF: SARIFPlace{Path: "/tmp/agc.sarif"}})
	}
}
