#!/bin/sh
# Qwen Code under agentvcr conform (chat completions): `agentvcr conform -- ./agent.sh`.
# conform gives OPENAI_BASE_URL (its loopback URL, ending in /v1) and
# OPENAI_API_KEY (a dummy); Qwen Code reads both, with OPENAI_MODEL, when its
# auth type is openai. It runs on the Node 22 of the npm package `node`
# pinned beside it (Qwen Code needs Node 22; the machine's Node is not used).
# Its settings live in a home made here and removed at the end, never the
# real one. The prompt is the first argument, or a default one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
node="$here/node_modules/node/bin/node"
cli="$here/node_modules/@qwen-code/qwen-code/cli.js"
if [ ! -x "$node" ] || [ ! -f "$cli" ]; then
  echo "agent.sh: Qwen Code or its Node is missing: run npm ci in $here" >&2
  exit 2
fi
: "${OPENAI_BASE_URL:?agent.sh: OPENAI_BASE_URL is not set (run it under agentvcr conform)}"
: "${OPENAI_API_KEY:?agent.sh: OPENAI_API_KEY is not set}"
export OPENAI_MODEL="${OPENAI_MODEL:-conform}"
prompt=${1:-"What is in this folder? Look at its files, then answer in one sentence."}

home=$(mktemp -d "${TMPDIR:-/tmp}/qwen-code-home.XXXXXX") || exit 2
trap 'rm -rf "$home"' EXIT
# conform ends a case with SIGTERM (then SIGKILL): exit so that the EXIT trap runs
trap 'exit 143' TERM INT
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
mkdir -p "$home/.qwen"
# Nothing but the model requests leaves the machine: no update check,
# no usage statistics, no telemetry export.
cat >"$home/.qwen/settings.json" <<'EOF'
{
  "security": { "auth": { "selectedType": "openai" } },
  "general": { "enableAutoUpdate": false, "disableAutoUpdate": true, "disableUpdateNag": true },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false }
}
EOF
export QWEN_CODE_SKIP_UPDATE_CHECK_ONCE=true QWEN_CODE_NO_RELAUNCH=true

# -p runs one prompt without a terminal and exits. The default approval mode
# runs the read-only tools without asking and refuses the others (nobody to ask).
"$node" "$cli" -p "$prompt" --auth-type openai </dev/null
