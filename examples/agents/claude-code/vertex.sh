#!/bin/sh
# Claude Code in its Vertex AI mode under agentvcr conform -api vertex-anthropic:
# `agentvcr conform -api vertex-anthropic -- ./vertex.sh`. conform gives
# ANTHROPIC_VERTEX_BASE_URL (its loopback URL and /v1); with
# CLAUDE_CODE_SKIP_VERTEX_AUTH=1 Claude Code asks Google for no token. The
# project and region only name the path it posts to.
set -u
: "${ANTHROPIC_VERTEX_BASE_URL:?vertex.sh: ANTHROPIC_VERTEX_BASE_URL is not set (run it under agentvcr conform -api vertex-anthropic)}"
export CLAUDE_ROUTE=vertex CLAUDE_CODE_USE_VERTEX=1 CLAUDE_CODE_SKIP_VERTEX_AUTH=1 \
  ANTHROPIC_VERTEX_PROJECT_ID=agentvcr-conform CLOUD_ML_REGION=us-east5
unset CLAUDE_CODE_USE_BEDROCK
exec "$(dirname "$0")/agent.sh" "$@"
