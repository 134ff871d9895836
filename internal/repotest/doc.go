// Package repotest holds tests of the repository itself: its workflows,
// action.yml and the examples in the README, checked with the real
// actionlint that scripts/setup.sh installs. It reads the repository's
// files and runs actionlint; it has tests only.
package repotest
