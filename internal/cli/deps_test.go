package cli

import "github.com/agcgate/agc-action/internal/action"

// testDeps are what cmd/agc-sarif's main passes in (its deps), so that
// the tests run the command table main runs, "action" included.
var testDeps = Deps{Action: action.Main}
