package review

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
)

// InlineBody bounds the text but not the marker, whose id is
// unbounded and percent-encoded (×9 for CJK): the body passes 65,536.
func TestInlineBodyWithinLimitWithMarker(t *testing.T) {
	f := finding("lint", strings.Repeat("名", 400), "db.go:4", agc.Blocking)
	f.Why = strings.Repeat("w", MaxBody-1000-len(findingText("lint", Placed{Finding: &f}))+len(f.Why)-10)
	body, _ := InlineBody("lint", Placed{Finding: &f})
	if n := len([]rune(body)); n > MaxBody {
		t.Errorf("inline body is %d characters, over GitHub's %d: the whole review fails with 422", n, MaxBody)
	}
}
