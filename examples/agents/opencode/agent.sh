#!/bin/sh
# opencode under agentvcr conform (chat completions): `agentvcr conform -- ./agent.sh`.
# conform gives OPENAI_BASE_URL (its loopback URL, ending in /v1) and
# OPENAI_API_KEY (a dummy). opencode reads neither by itself for a custom
# endpoint, so they go into an OpenAI-compatible provider "vcr" with one
# model "conform", in a config file of a home made here and removed at the
# end (never the real one). The prompt is the first argument, or a default one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli="$here/node_modules/.bin/opencode"
if [ ! -x "$cli" ]; then
  echo "agent.sh: $cli is missing: run npm ci in $here" >&2
  exit 2
fi
: "${OPENAI_BASE_URL:?agent.sh: OPENAI_BASE_URL is not set (run it under agentvcr conform)}"
: "${OPENAI_API_KEY:?agent.sh: OPENAI_API_KEY is not set}"
prompt=${1:-"What is in this folder? Look at its files, then answer in one sentence."}

home=$(mktemp -d "${TMPDIR:-/tmp}/opencode-home.XXXXXX") || exit 2
trap 'rm -rf "$home"' EXIT
# conform ends a case with SIGTERM (then SIGKILL): exit so that the EXIT trap runs
trap 'exit 143' TERM INT
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
mkdir -p "$XDG_CONFIG_HOME/opencode"
# The provider reads the URL and key from the environment when it starts
# ({env:...}), so the file holds neither.
cat >"$XDG_CONFIG_HOME/opencode/opencode.json" <<'EOF'
{
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "lsp": false,
  "formatter": false,
  "enabled_providers": ["vcr"],
  "model": "vcr/conform",
  "provider": {
    "vcr": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "agentvcr conform",
      "options": { "baseURL": "{env:OPENAI_BASE_URL}", "apiKey": "{env:OPENAI_API_KEY}" },
      "models": { "conform": { "name": "conform", "tool_call": true } }
    }
  },
  "permission": { "edit": "deny", "bash": "deny", "webfetch": "deny", "websearch": "deny" }
}
EOF

# Nothing but the model requests leaves the machine: no models.dev catalog,
# no update check, no share links, no LSP downloads, no default or external
# plugins and skills, no reading of Claude Code's files.
export OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_SHARE=1 \
  OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_EXTERNAL_SKILLS=1 \
  OPENCODE_DISABLE_CLAUDE_CODE=1 OPENCODE_DISABLE_PROJECT_CONFIG=1 OPENCODE_DISABLE_TERMINAL_TITLE=1

# `opencode run` takes one prompt, runs the conversation to its end and exits.
"$cli" run "$prompt" </dev/null
