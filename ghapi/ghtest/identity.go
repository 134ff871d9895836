package ghtest

import "fmt"

// Identity is who a token authenticates as.
type Identity struct {
	Login string
	ID    int64
	Type  string // "Bot" or "User"
	// AppSlug and AppID name the GitHub App behind a bot token; check runs
	// it creates carry that app.
	AppSlug string
	AppID   int64
	// ReadOnly tokens get 403 "Resource not accessible by integration" on
	// every write, as the Actions token of a fork pull request does.
	ReadOnly bool
}

// Tokens the emulator knows from the start.
const (
	// TokenActions is the Actions GITHUB_TOKEN with write permissions.
	TokenActions = "ghs_emulator_actions_write"
	// TokenReadOnly is the Actions token of a pull request from a fork.
	TokenReadOnly = "ghs_emulator_actions_readonly"
	// TokenOther is another bot (a different app) writing on the same PR.
	TokenOther = "ghs_emulator_other_app"
	// TokenUser is a person.
	TokenUser = "ghp_emulator_octocat"
)

// ActionsBot is the identity behind TokenActions and TokenReadOnly.
var ActionsBot = Identity{Login: "github-actions[bot]", ID: 41898282, Type: "Bot", AppSlug: "github-actions", AppID: 15368}

func defaultTokens() map[string]Identity {
	ro := ActionsBot
	ro.ReadOnly = true
	return map[string]Identity{
		TokenActions:  ActionsBot,
		TokenReadOnly: ro,
		TokenOther:    {Login: "other-linter[bot]", ID: 900001, Type: "Bot", AppSlug: "other-linter", AppID: 90001},
		TokenUser:     {Login: "octocat", ID: 583231, Type: "User"},
	}
}

// userJSON is the simple-user object GitHub embeds for an author.
func (id Identity) userJSON() map[string]any {
	api := "https://api.github.com/users/" + id.Login
	return map[string]any{
		"login": id.Login, "id": id.ID, "node_id": nodeID("U", id.ID), "type": id.Type, "site_admin": false,
		"avatar_url": fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", id.ID), "gravatar_id": "",
		"url": api, "html_url": "https://github.com/" + id.Login,
		"followers_url": api + "/followers", "following_url": api + "/following{/other_user}",
		"gists_url": api + "/gists{/gist_id}", "starred_url": api + "/starred{/owner}{/repo}",
		"subscriptions_url": api + "/subscriptions", "organizations_url": api + "/orgs",
		"repos_url": api + "/repos", "events_url": api + "/events{/privacy}", "received_events_url": api + "/received_events",
	}
}

// appJSON is the integration object of the app behind a bot, or nil.
func (id Identity) appJSON() map[string]any {
	if id.AppSlug == "" {
		return nil
	}
	owner := Identity{Login: "github", ID: 9919, Type: "Organization"}
	return map[string]any{
		"id": id.AppID, "slug": id.AppSlug, "node_id": nodeID("A", id.AppID), "name": id.AppSlug, "description": "",
		"owner": owner.userJSON(), "external_url": "https://github.com/apps/" + id.AppSlug,
		"html_url": "https://github.com/apps/" + id.AppSlug, "created_at": "2018-07-30T09:30:17Z", "updated_at": "2024-04-10T20:33:16Z",
		"permissions": map[string]any{"checks": "write", "pull_requests": "write", "statuses": "write"},
		"events":      []any{"check_run", "pull_request"},
	}
}
