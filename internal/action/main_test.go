package action

import (
	"os"
	"testing"

	"github.com/agcgate/agc-action/ghapi/ghtest"
)

// TestMain records the client's waits instead of sleeping them, so a test
// of a lagging head or a rate limit does not wait for real.
func TestMain(m *testing.M) {
	clientSleep = (&ghtest.Sleeps{}).Sleep
	os.Exit(m.Run())
}
