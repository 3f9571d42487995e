#!/bin/sh
# Gemini CLI pointed at a loopback server. It speaks only Gemini's own API
# (POST {base}/v1beta/models/MODEL:streamGenerateContent?alt=sse, and
# :generateContent for its side requests), which agentvcr conform does not
# serve yet: this wrapper only records how to point it at one. It takes the
# URL from GOOGLE_GEMINI_BASE_URL, else from conform's OPENAI_BASE_URL without
# its /v1, and the key from GEMINI_API_KEY, else OPENAI_API_KEY. Its settings
# live in a home made here and removed at the end, never the real one. The
# prompt is the first argument, or a default one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli="$here/node_modules/@google/gemini-cli/bundle/gemini.js"
if [ ! -f "$cli" ]; then
  echo "agent.sh: $cli is missing: run npm ci in $here" >&2
  exit 2
fi
base=${GOOGLE_GEMINI_BASE_URL:-${OPENAI_BASE_URL:-}}
key=${GEMINI_API_KEY:-${OPENAI_API_KEY:-}}
if [ -z "$base" ] || [ -z "$key" ]; then
  echo "agent.sh: set GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY (or OPENAI_BASE_URL and OPENAI_API_KEY)" >&2
  exit 2
fi
export GOOGLE_GEMINI_BASE_URL="${base%/v1}" GEMINI_API_KEY="$key"
prompt=${1:-"What is in this folder? Look at its files, then answer in one sentence."}

home=$(mktemp -d "${TMPDIR:-/tmp}/gemini-cli-home.XXXXXX") || exit 2
trap 'rm -rf "$home"' EXIT
# conform ends a case with SIGTERM (then SIGKILL): exit so that the EXIT trap runs
trap 'exit 143' TERM INT
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
export GEMINI_CLI_HOME="$home"
mkdir -p "$home/.gemini"
# Nothing but the model requests leaves the machine: no update check or
# notice, no usage statistics, no telemetry.
cat >"$home/.gemini/settings.json" <<'EOF'
{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false }
}
EOF
export GEMINI_TELEMETRY_ENABLED=false GEMINI_CLI_NO_RELAUNCH=true
# The folder it runs in is trusted without asking (headless runs refuse otherwise).
export GEMINI_CLI_TRUST_WORKSPACE=true

# -p runs one prompt without a terminal and exits; the default approval mode
# runs the read-only tools and refuses the others (nobody to ask).
node "$cli" -p "$prompt" </dev/null
