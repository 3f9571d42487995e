#!/bin/sh
# Gemini CLI in its Vertex AI mode, pointed at a loopback server. It posts
# to {base}/v1beta1/projects/PROJECT/locations/LOCATION/publishers/google/
# models/MODEL:streamGenerateContent?alt=sse (and :generateContent for its
# side requests) with "Authorization: Bearer TOKEN", the way it calls Vertex
# AI with Application Default Credentials. It takes the base URL from
# GOOGLE_VERTEX_BASE_URL, else GOOGLE_GEMINI_BASE_URL (what agentvcr conform
# -api gemini sets), else conform's OPENAI_BASE_URL without its /v1, and the
# token from GEMINI_API_KEY, else OPENAI_API_KEY. No Google account is
# needed: the token comes from a stand-in for the GCE metadata server on
# 127.0.0.1 (metadata-server.mjs), which google-auth-library asks for the
# default service account's token. Its settings live in a home made here
# and removed at the end, never the real one. The prompt is the first
# argument, or a default one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli="$here/node_modules/@google/gemini-cli/bundle/gemini.js"
if [ ! -f "$cli" ]; then
  echo "agent-vertex.sh: $cli is missing: run npm ci in $here" >&2
  exit 2
fi
base=${GOOGLE_VERTEX_BASE_URL:-${GOOGLE_GEMINI_BASE_URL:-${OPENAI_BASE_URL:-}}}
token=${GEMINI_API_KEY:-${OPENAI_API_KEY:-}}
if [ -z "$base" ] || [ -z "$token" ]; then
  echo "agent-vertex.sh: set GOOGLE_VERTEX_BASE_URL (or GOOGLE_GEMINI_BASE_URL, or OPENAI_BASE_URL) and GEMINI_API_KEY (or OPENAI_API_KEY)" >&2
  exit 2
fi
project=agentvcr-conform location=us-central1
prompt=${1:-"What is in this folder? Look at its files, then answer in one sentence."}

home=$(mktemp -d "${TMPDIR:-/tmp}/gemini-cli-vertex-home.XXXXXX") || exit 2
metadata_pid=
trap '[ -n "$metadata_pid" ] && kill "$metadata_pid" 2>/dev/null; rm -rf "$home"' EXIT
# conform ends a case with SIGTERM (then SIGKILL): exit so that the EXIT trap runs
trap 'exit 143' TERM INT

node "$here/metadata-server.mjs" "$home/metadata-port" "$token" "$project" &
metadata_pid=$!
tries=0
while [ ! -s "$home/metadata-port" ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt 100 ] || ! kill -0 "$metadata_pid" 2>/dev/null; then
    echo "agent-vertex.sh: the metadata stand-in did not start" >&2
    exit 2
  fi
  sleep 0.1
done

# The only variables of Google's it reads are these: Vertex AI mode, the
# project and region (the path's), the endpoint, and the metadata server
# (GCE_METADATA_HOST; assume-present skips the probe of the real one at
# 169.254.169.254). No key: with one, the genai SDK would switch to express
# mode (another path, x-goog-api-key).
unset GEMINI_API_KEY GOOGLE_API_KEY GOOGLE_GEMINI_BASE_URL GOOGLE_APPLICATION_CREDENTIALS OPENAI_API_KEY OPENAI_BASE_URL
export GOOGLE_GENAI_USE_VERTEXAI=true GOOGLE_CLOUD_PROJECT="$project" GOOGLE_CLOUD_LOCATION="$location"
export GOOGLE_VERTEX_BASE_URL="${base%/v1}"
export GCE_METADATA_HOST="127.0.0.1:$(cat "$home/metadata-port")" METADATA_SERVER_DETECTION=assume-present

export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
export GEMINI_CLI_HOME="$home" CLOUDSDK_CONFIG="$home/.config/gcloud"
mkdir -p "$home/.gemini"
# Nothing but the model requests leaves the machine: no update check or
# notice, no usage statistics, no telemetry.
cat >"$home/.gemini/settings.json" <<'JSON'
{
  "security": { "auth": { "selectedType": "vertex-ai" } },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false }
}
JSON
export GEMINI_TELEMETRY_ENABLED=false GEMINI_CLI_NO_RELAUNCH=true
# The folder it runs in is trusted without asking (headless runs refuse otherwise).
export GEMINI_CLI_TRUST_WORKSPACE=true

# -p runs one prompt without a terminal and exits; the default approval mode
# runs the read-only tools and refuses the others (nobody to ask). Not exec:
# the EXIT trap stops the metadata stand-in.
node "$cli" -p "$prompt" </dev/null
