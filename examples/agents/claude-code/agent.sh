#!/bin/sh
# Claude Code under agentvcr conform -api messages: `agentvcr conform -api messages -- ./agent.sh`.
# conform gives ANTHROPIC_BASE_URL (its loopback URL, without /v1) and
# ANTHROPIC_API_KEY (a dummy); Claude Code reads both as they are. The prompt
# is the first argument, or a default one. Claude Code keeps its settings,
# sessions and caches in a home of its own made here and removed at the end,
# never in the real one. bedrock.sh and vertex.sh run it through here in its
# Amazon Bedrock and Vertex AI modes (CLAUDE_ROUTE says which).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli="$here/node_modules/.bin/claude"
if [ ! -x "$cli" ]; then
  echo "agent.sh: $cli is missing: run npm ci in $here" >&2
  exit 2
fi
route=${CLAUDE_ROUTE:-messages}
case $route in
messages)
  : "${ANTHROPIC_BASE_URL:?agent.sh: ANTHROPIC_BASE_URL is not set (run it under agentvcr conform -api messages)}"
  : "${ANTHROPIC_API_KEY:?agent.sh: ANTHROPIC_API_KEY is not set}" ;;
bedrock | vertex) ;;
*) echo "agent.sh: CLAUDE_ROUTE=$route: want messages, bedrock or vertex" >&2; exit 2 ;;
esac
prompt=${1:-"What is in this folder? Look at its files, then answer in one sentence."}

home=$(mktemp -d "${TMPDIR:-/tmp}/claude-code-home.XXXXXX") || exit 2
trap 'rm -rf "$home"' EXIT
# conform ends a case with SIGTERM (then SIGKILL): exit so that the EXIT trap runs
trap 'exit 143' TERM INT
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
export CLAUDE_CONFIG_DIR="$home/.claude"
mkdir -p "$CLAUDE_CONFIG_DIR"

# Nothing but the model requests leaves the machine: no auto-update, telemetry,
# error reports, feedback survey, release notes or model-capability look-ups
# (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC covers all of these; the others
# say it again for versions that read them one by one).
export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 \
  DISABLE_ERROR_REPORTING=1 DISABLE_BUG_COMMAND=1 CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1
unset ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN
case $route in
messages) unset CLAUDE_CODE_USE_BEDROCK CLAUDE_CODE_USE_VERTEX ;;
*) unset ANTHROPIC_BASE_URL ANTHROPIC_API_KEY ;; # the route's own base URL only
esac

# -p runs one prompt without a terminal and exits; the read-only tools run
# without asking, anything else is refused (there is nobody to ask).
"$cli" -p "$prompt" --allowedTools "Read,Glob,Grep" </dev/null
