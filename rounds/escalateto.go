package rounds

import (
	"fmt"
	"strings"
)

// CheckEscalateTo checks who an escalation names, as the workflow gives
// it: a GitHub login (1 to 39 letters, digits and single hyphens, neither
// first nor last) or a team, org/team-slug (a login, "/", then 1 to 100
// letters, digits, "-" and "_", starting with a letter or digit). A
// leading "@" is dropped. It returns the name without "@": the one text
// the Action mentions, so nothing else may pass.
func CheckEscalateTo(s string) (string, error) {
	name := strings.TrimPrefix(s, "@")
	org, team, isTeam := strings.Cut(name, "/")
	if !login(org) || (isTeam && !teamSlug(team)) {
		return "", fmt.Errorf("%q is neither a GitHub login (octocat) nor a team (org/team)", s)
	}
	return name, nil
}

func login(s string) bool {
	if len(s) == 0 || len(s) > 39 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, c := range []byte(s) {
		if !alnum(c) && c != '-' {
			return false
		}
	}
	return true
}

func teamSlug(s string) bool {
	if len(s) == 0 || len(s) > 100 || !alnum(s[0]) {
		return false
	}
	for _, c := range []byte(s) {
		if !alnum(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
