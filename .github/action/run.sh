#!/usr/bin/env bash
# The agentvcr GitHub Action (action.yml at the repository's root): builds
# agentvcr from the action's own checkout with the runner's Go, runs
# agentvcr conform on the agent, writes the JSON and JUnit reports under
# OUT_DIR and appends a Markdown table (case, verdict, first difference) to
# the job's summary. Exits with conform's status: 0 every case passes or
# fails as the baseline says, 1 otherwise, 2 on a usage error.
#
# Inputs, as the action passes them:
#   INPUT_COMMAND   the agent's command line, run by bash -c (required)
#   INPUT_API       chat, messages, responses or gemini (default chat)
#   INPUT_BASELINE  a baseline file, relative to the workspace (optional)
#   INPUT_CASES     case ids, comma-separated (optional: every case)
#   INPUT_CASE_DIRS folders of case files, comma-separated or one per line (optional)
#   INPUT_TIMEOUT   -timeout of each case (default 30s)
#   INPUT_SHARD     I/N: run one shard of the cases (optional)
#   INPUT_OUT_DIR   where the reports go (default agentvcr-report)
# From the runner: GITHUB_STEP_SUMMARY (required), GITHUB_OUTPUT and
# RUNNER_TEMP (optional). AGENTVCR_ACTION_BIN, when set, is an agentvcr
# already built, run instead of building one (the repository's tests).
set -euo pipefail

action_dir=$(cd "$(dirname "$0")/../.." && pwd)
summary=${GITHUB_STEP_SUMMARY:?GITHUB_STEP_SUMMARY is not set: run this script as the action does, or set it to a file}
out_dir=${INPUT_OUT_DIR:-agentvcr-report}
shard=${INPUT_SHARD:-}

gap() { [ ! -s "$summary" ] || echo >> "$summary"; } # a blank line after an earlier step's summary
fail() { # CODE MESSAGE: says it on stderr and in the summary, and exits CODE
  echo "agentvcr action: $2" >&2
  gap
  printf '### agentvcr conform\n\nNot run: %s\n' "$2" >> "$summary"
  exit "$1"
}

[ -n "${INPUT_COMMAND:-}" ] || fail 2 "the input command is empty: give the agent's command line, e.g. command: node agent.js"
# Inputs that reach $GITHUB_OUTPUT or the summary are checked before either is
# written: a line break in them would add lines of its own (exit-code=0). The
# value itself is not echoed, for the same reason.
if [ -n "$shard" ] && ! [[ $shard =~ ^[0-9]+/[0-9]+$ ]]; then
  fail 2 "the input shard is not I/N (e.g. shard: 2/3)"
fi
if [[ $out_dir == *$'\n'* || $out_dir == *$'\r'* ]]; then
  fail 2 "the input out-dir holds a line break: give one folder"
fi
command -v go > /dev/null || fail 2 "no go on the runner: add actions/setup-go (Go 1.26 or later) before this action"

artifact=agentvcr-conform
if [ -n "$shard" ]; then
  case "$shard" in
    */*) artifact="agentvcr-conform-shard-${shard%%/*}-of-${shard#*/}" ;;
    *) ;; # conform says what is wrong with it
  esac
fi

bin_dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentvcr-action.XXXXXX")
trap 'rm -rf "$bin_dir"' EXIT
agentvcr=$bin_dir/agentvcr
if [ -n "${AGENTVCR_ACTION_BIN:-}" ]; then
  agentvcr=$AGENTVCR_ACTION_BIN # an agentvcr already built: the repository's own tests pass one
else
  (cd "$action_dir" && go build -o "$agentvcr" ./cmd/agentvcr) || fail 2 "go build of agentvcr failed (it needs Go 1.26 or later)"
fi

mkdir -p "$out_dir"
rm -f "$out_dir/report.json" "$out_dir/report.xml" # an earlier run's are not this one's
args=(conform -api "${INPUT_API:-chat}" -timeout "${INPUT_TIMEOUT:-30s}" -json "$out_dir/report.json" -junit "$out_dir/report.xml")
[ -z "${INPUT_BASELINE:-}" ] || args+=(-baseline "$INPUT_BASELINE")
[ -z "${INPUT_CASES:-}" ] || args+=(-case "$INPUT_CASES")
# each folder its own -cases; spaces inside a name are kept, blank entries skipped
while IFS= read -r dir; do
  dir=${dir#"${dir%%[![:space:]]*}"}
  dir=${dir%"${dir##*[![:space:]]}"}
  [ -z "$dir" ] || args+=(-cases "$dir")
done < <(printf '%s\n' "${INPUT_CASE_DIRS:-}" | tr ',' '\n')
[ -z "$shard" ] || args+=(-shard "$shard")

code=0
"$agentvcr" "${args[@]}" -- bash -c "$INPUT_COMMAND" || code=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  # GitHub's delimiter form (NAME<<DELIMITER, the value, DELIMITER): a value
  # can end no earlier than the delimiter, which is random and in no value.
  delimiter=agentvcr_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  output() { printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >> "$GITHUB_OUTPUT"; }
  output artifact "$artifact"
  output report-dir "$out_dir"
  output exit-code "$code"
fi
if [ ! -s "$out_dir/report.json" ]; then
  fail "$code" "agentvcr conform exited $code before writing a report (its message is in the step's log)"
fi
gap
"$agentvcr" report md "$out_dir/report.json" >> "$summary"
exit "$code"
