// Package repotest holds tests of the repository itself: its workflows,
// action.yml and the examples in the README, checked with the real
// actionlint and shellcheck that scripts/setup.sh installs; the release
// archives, built with the pinned GoReleaser on a clean clone; and the
// Action's composite step, run on them as a runner runs it. It reads the
// repository's files and runs those tools; it has tests only.
package repotest
