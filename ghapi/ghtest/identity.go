package ghtest

// Identity is who a token authenticates as.
type Identity struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"` // "Bot" or "User"
	// AppSlug and AppID name the GitHub App behind a bot token; check runs
	// it creates carry that app.
	AppSlug string `json:"-"`
	AppID   int64  `json:"-"`
	// ReadOnly tokens get 403 "Resource not accessible by integration" on
	// every write, as the Actions token of a fork pull request does.
	ReadOnly bool `json:"-"`
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

// app is the GitHub App behind a bot, or nil.
func (id Identity) app() any {
	if id.AppSlug == "" {
		return nil
	}
	return obj{"id": id.AppID, "slug": id.AppSlug, "name": id.AppSlug}
}
