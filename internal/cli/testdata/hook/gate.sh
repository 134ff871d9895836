#!/usr/bin/env bash
# A small AGC gate for the hook tests. It reads a Claude Code PreToolUse
# payload for the Bash tool on stdin and prints one AGC response:
#   - a command that runs in the main checkout (/work/main) is repaired to
#     run in the workstream;
#   - "git push --force" is blocked;
#   - "rm -rf /" is escalated to a person;
#   - "sleep" sleeps (for the timeout test); "garbage" prints invalid AGC;
#   - anything else is allowed.
# It refuses to run outside preview mode (AGC_PREVIEW=1), as a hook's gate
# must not block or write state itself.
set -eu
payload=$(cat)
if [ "${AGC_PREVIEW:-}" != "1" ]; then
  echo "gate.sh: not in preview mode" >&2
  exit 3
fi
fp="sha256:$(printf '%s' "$payload" | sha256sum | cut -d' ' -f1)"
head='"agc": "0.1", "gate": {"id": "bash-guard", "kind": "deterministic", "version": "1"},
  "subject": {"kind": "tool-call", "fingerprint": "'"$fp"'", "scope": ["Bash.command"]}'
tail='"coverage": {"complete": true, "classes": ["main-checkout-access", "force-push", "destructive"]},
  "attempt": {"n": 1, "budget": 2}'

# answer VERDICT CLASS WHAT WHY REMEDY: one blocking finding on Bash.command.
answer() {
  cat <<JSON
{ $head, "verdict": "$1",
  "findings": [{"id": "bash-guard/$2/Bash.command", "class": "$2",
    "location": "Bash.command", "what": "$3",
    "why": "$4",
    "severity": "blocking", "status": "new",
    "remedy": $5,
    "check": {"kind": "preview"}}],
  $tail }
JSON
}

case "$payload" in
  *'cd /work/main'*)
    answer repaired main-checkout-access \
      "The command runs in the main checkout instead of the workstream." \
      "Rule main-checkout-access: agents work only inside their own worktree." \
      '{"kind": "rewrite", "input": {"command": "cd /work/.worktrees/metrics-fix/backend && git status"}, "applied": true}'
    ;;
  *'git push --force'*)
    echo "gate.sh: blocking a force push" >&2
    answer block force-push \
      "The command force-pushes a shared branch." \
      "Rule force-push: shared branches are never rewritten." \
      '{"kind": "command", "run": "git push --force-with-lease"}'
    exit 1
    ;;
  *'rm -rf /'*)
    answer escalate destructive \
      "The command deletes the file system root." \
      "Rule destructive: only a person may approve deleting outside the workspace." \
      '{"kind": "decide", "ask": "@oncall", "options": ["run it", "do not run it"]}'
    ;;
  *sleep*)
    sleep 30
    ;;
  *garbage*)
    echo '{"agc": "0.1", "verdict": "allow"}'
    ;;
  *)
    echo "{ $head, \"verdict\": \"allow\", \"findings\": [], $tail }"
    ;;
esac
