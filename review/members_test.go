package review

import (
	"testing"

	"github.com/agcgate/agc-action/sarif"
)

// TestHelpMemberIsSarifs: review reads the rule's help URI from the member
// package sarif writes it in; review keeps its own copy of the name (it
// does not import sarif), so the two must not drift apart.
func TestHelpMemberIsSarifs(t *testing.T) {
	if helpMember != sarif.HelpMember {
		t.Errorf("review's helpMember is %q, sarif.HelpMember is %q", helpMember, sarif.HelpMember)
	}
}
