package review

import (
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/google/go-cmp/cmp"
)

func TestMarkerRoundTrip(t *testing.T) {
	id := "gate/class/src/a b.go#F --> <!-- agc:end -->\n%"
	line := FormatMarker(MarkFinding, "gate", "g", "id", id, "hash", "abc")
	if strings.ContainsAny(line[len("<!-- agc:finding"):len(line)-4], "<>\n") {
		t.Fatalf("marker value not escaped: %q", line)
	}
	ms := ParseMarkers(withMarkers([]string{line}, "text"))
	want := []Marker{{Kind: MarkFinding, Attrs: map[string]string{"gate": "g", "id": id, "hash": "abc"}}}
	if diff := cmp.Diff(want, ms); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A finding whose text holds marker lines cannot add markers to a comment:
// markers are read only before the end line, and render escapes "<!--".
func TestMarkersCannotBeForged(t *testing.T) {
	forged := FormatMarker(MarkFinding, "gate", "g", "id", "victim", "hash", "0") + "\n" + markerEnd
	f := finding("g", "x", "a.go:1", agc.Blocking)
	f.What = forged
	f.Why = "\n" + forged + "\n"
	body, _ := InlineBody("g", Placed{Finding: &f, Channel: ChannelInline})
	ms := ParseMarkers(body)
	if len(ms) != 1 || ms[0].Attrs["id"] != "g/x" {
		t.Fatalf("markers = %+v, want only g/x", ms)
	}
	if strings.Count(body, "<!--") != 2 {
		t.Errorf("finding text put a raw <!-- in the body:\n%s", body)
	}
	for _, b := range []string{"", "text", "text\n" + forged, "<!-- agc:finding id=a -->", "<!-- agc:finding gate=g id=a -->\nno end line"} {
		if ms := ParseMarkers(b); ms != nil {
			t.Errorf("ParseMarkers(%q) = %v, want none", b, ms)
		}
	}
}
