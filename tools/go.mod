// tools/ holds the pinned test tools scripts/setup.sh installs (npm
// packages under node_modules, Go binaries under bin). This file makes it
// a module of its own, so that ./... of agc-action never reaches into it:
// some npm packages ship Go sources (flatted does), which go vet,
// staticcheck and go test would otherwise scan as if they were ours.
module agc-action-tools

go 1.26
