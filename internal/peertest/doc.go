// Package peertest measures the claims the docs make about reviewdog, the
// tool most people use today to post linter findings to GitHub: it runs the
// real reviewdog v0.21.0 binary (installed into tools/bin by
// scripts/setup.sh) and ghapi on the same SARIF log and the same pull
// request, each against its own ghapi/ghtest emulator on loopback, and
// asserts on what each side observably did (exit code, requests, the
// comments GitHub would hold).
//
// reviewdog is driven as in GitHub Actions (-reporter=github-pr-review, a
// pull_request event payload, GITHUB_API pointing at the emulator through a
// ghtest.PeerFront, which also serves the three operations reviewdog uses
// and ghapi does not). ghapi is driven as `agc-sarif github --review`
// drives it: sarif.Read, Client.Deliver.
//
// The package holds only tests.
package peertest
