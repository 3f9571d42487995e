#!/bin/sh
# Claude Code in its Amazon Bedrock mode under agentvcr conform -api bedrock:
# `agentvcr conform -api bedrock -- ./bedrock.sh`. conform gives
# AWS_ENDPOINT_URL_BEDROCK_RUNTIME (its loopback URL); Claude Code posts to
# ANTHROPIC_BEDROCK_BASE_URL, and with CLAUDE_CODE_SKIP_BEDROCK_AUTH=1 it
# neither looks for AWS credentials nor signs (a gateway in front of Bedrock
# signs for it). The region only names the model's inference profile.
set -u
: "${AWS_ENDPOINT_URL_BEDROCK_RUNTIME:?bedrock.sh: AWS_ENDPOINT_URL_BEDROCK_RUNTIME is not set (run it under agentvcr conform -api bedrock)}"
export CLAUDE_ROUTE=bedrock CLAUDE_CODE_USE_BEDROCK=1 CLAUDE_CODE_SKIP_BEDROCK_AUTH=1 \
  ANTHROPIC_BEDROCK_BASE_URL="$AWS_ENDPOINT_URL_BEDROCK_RUNTIME" AWS_REGION=us-east-1
unset CLAUDE_CODE_USE_VERTEX
exec "$(dirname "$0")/agent.sh" "$@"
