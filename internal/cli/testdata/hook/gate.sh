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
case "$payload" in
  *'cd /work/main'*)
    cat <<JSON
{ $head, "verdict": "repaired",
  "findings": [{"id": "bash-guard/main-checkout-access/Bash.command", "class": "main-checkout-access",
    "location": "Bash.command", "what": "The command runs in the main checkout instead of the workstream.",
    "why": "Rule main-checkout-access: agents work only inside their own worktree.",
    "severity": "blocking", "status": "new",
    "remedy": {"kind": "rewrite", "input": {"command": "cd /work/.worktrees/metrics-fix/backend && git status"}, "applied": true},
    "check": {"kind": "preview"}}],
  "coverage": {"complete": true, "classes": ["main-checkout-access", "force-push", "destructive"]},
  "attempt": {"n": 1, "budget": 2} }
JSON
    ;;
  *'git push --force'*)
    echo "gate.sh: blocking a force push" >&2
    cat <<JSON
{ $head, "verdict": "block",
  "findings": [{"id": "bash-guard/force-push/Bash.command", "class": "force-push",
    "location": "Bash.command", "what": "The command force-pushes a shared branch.",
    "why": "Rule force-push: shared branches are never rewritten.",
    "severity": "blocking", "status": "new",
    "remedy": {"kind": "command", "run": "git push --force-with-lease"},
    "check": {"kind": "preview"}}],
  "coverage": {"complete": true, "classes": ["main-checkout-access", "force-push", "destructive"]},
  "attempt": {"n": 1, "budget": 2} }
JSON
    exit 1
    ;;
  *'rm -rf /'*)
    cat <<JSON
{ $head, "verdict": "escalate",
  "findings": [{"id": "bash-guard/destructive/Bash.command", "class": "destructive",
    "location": "Bash.command", "what": "The command deletes the file system root.",
    "why": "Rule destructive: only a person may approve deleting outside the workspace.",
    "severity": "blocking", "status": "new",
    "remedy": {"kind": "decide", "ask": "@oncall", "options": ["run it", "do not run it"]},
    "check": {"kind": "preview"}}],
  "coverage": {"complete": true, "classes": ["main-checkout-access", "force-push", "destructive"]},
  "attempt": {"n": 1, "budget": 2} }
JSON
    ;;
  *sleep*)
    sleep 30
    ;;
  *garbage*)
    echo '{"agc": "0.1", "verdict": "allow"}'
    ;;
  *)
    cat <<JSON
{ $head, "verdict": "allow", "findings": [],
  "coverage": {"complete": true, "classes": ["main-checkout-access", "force-push", "destructive"]},
  "attempt": {"n": 1, "budget": 2} }
JSON
    ;;
esac
