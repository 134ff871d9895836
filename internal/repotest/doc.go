// Package repotest holds tests of the repository itself: its workflows,
// action.yml and the examples in the README, checked with the real
// actionlint that scripts/setup.sh installs.
package repotest
