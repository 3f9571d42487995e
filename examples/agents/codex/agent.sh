#!/bin/sh
# Codex CLI under agentvcr conform -api responses: `agentvcr conform -api responses -- ./agent.sh`.
# conform gives OPENAI_BASE_URL (its loopback URL, ending in /v1) and
# OPENAI_API_KEY (a dummy). Codex sends a custom provider's requests over the
# Responses API only, so the URL goes into a provider "vcr" (wire_api
# "responses", key read from OPENAI_API_KEY) with model "conform", in the
# config.toml of a CODEX_HOME made here for this run and removed at the end
# (never the real one). supports_websockets = true: Codex dials the Responses
# WebSocket first, as it does on OpenAI's own provider (a custom provider
# posts over HTTP unless it says so), and posts instead after a 426. The
# prompt is the first argument, or a default one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli="$here/node_modules/.bin/codex"
if [ ! -x "$cli" ]; then
  echo "agent.sh: $cli is missing: run npm ci in $here" >&2
  exit 2
fi
: "${OPENAI_BASE_URL:?agent.sh: OPENAI_BASE_URL is not set (run it under agentvcr conform -api responses)}"
: "${OPENAI_API_KEY:?agent.sh: OPENAI_API_KEY is not set}"
case $OPENAI_BASE_URL in
*[\"\\]*) echo "agent.sh: OPENAI_BASE_URL holds a quote or a backslash: $OPENAI_BASE_URL" >&2; exit 2 ;;
esac
# stream_idle_timeout_ms: how long Codex waits on a silent stream before it
# drops the attempt (its default 300000, five minutes); CODEX_STREAM_IDLE_TIMEOUT_MS,
# read by this wrapper (Codex has no variable for it), sets another.
idle_ms=${CODEX_STREAM_IDLE_TIMEOUT_MS:-300000}
case $idle_ms in
''|*[!0-9]*) echo "agent.sh: CODEX_STREAM_IDLE_TIMEOUT_MS is not a number of milliseconds: $idle_ms" >&2; exit 2 ;;
esac
prompt=${1:-"What is in this folder? Look at its files, then answer in one sentence."}

home=$(mktemp -d "${TMPDIR:-/tmp}/codex-home.XXXXXX") || exit 2
trap 'rm -rf "$home"' EXIT
# conform ends a case with SIGTERM (then SIGKILL): exit so that the EXIT trap runs
trap 'exit 143' TERM INT
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
export CODEX_HOME="$home/.codex"
mkdir -p "$CODEX_HOME"
unset CODEX_API_KEY CODEX_ACCESS_TOKEN
cat >"$CODEX_HOME/config.toml" <<TOML
model = "conform"
model_provider = "vcr"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[history]
persistence = "none"

[features]
plugins = false
remote_plugin = false
apps = false

[model_providers.vcr]
name = "agentvcr conform"
base_url = "$OPENAI_BASE_URL"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
supports_websockets = true
stream_idle_timeout_ms = $idle_ms
TOML

"$cli" exec --skip-git-repo-check --ephemeral --color never "$prompt" </dev/null
