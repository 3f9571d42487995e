#!/usr/bin/env bash
# Side by side: agentvcr serve and aimock (@copilotkit/aimock, a Node LLM
# mock server) answer the same request with the same turn (the parallel
# cassette's first reply: text and two tool calls), on this machine, driven
# in turn by one Go load client (internal/servebench) at 1, 16 and 128
# concurrent clients. It prints replays per second (whole streams read) and
# the p99 latency of each, round by round, with the load average.
#
# Four servers are measured:
#   agentvcr       agentvcr serve as shipped: every event written and flushed
#                  on its own (19 events, 4,010 bytes)
#   agentvcr-one   agentvcr serve -coalesce: the events of a reply written at
#                  once, as Node's http sends the writes of one tick
#   bare           a bare net/http server (servebench -bare-serve) that
#                  writes the same events and flushes each, as serve does:
#                  the floor of serve's default mode; the summary gives each
#                  server's share of its replays per second
#   aimock         aimock at latency 0 (all its writes in one tick), chunk
#                  size 6 so that its stream has as many events (20, ~4,600 bytes)
#
# aimock is installed with npm into a temporary folder; without npm the
# script says so and exits 0. ROUNDS (3), DURATION (3s) and CLIENTS (1,16,128)
# tune it; AIMOCK_VERSION pins the package (1.43.0).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
	echo "serve_vs_aimock: npm or node is not installed: skipped (install Node.js to compare with aimock)"
	exit 0
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/agentvcr" ./cmd/agentvcr
go build -o "$tmp/servebench" ./internal/servebench
npm install --prefix "$tmp/npm" --no-audit --no-fund --silent "@copilotkit/aimock@${AIMOCK_VERSION:-1.43.0}" >/dev/null
"$tmp/servebench" -cassette cassettes/parallel.yaml -aimock-fixture "$tmp/fixture.json"

# wait_for FILE PATTERN: the first line of FILE matching PATTERN, within 20 s.
wait_for() {
	for _ in $(seq 200); do
		if line=$(grep -m1 -o "$2" "$1" 2>/dev/null); then
			echo "$line"
			return
		fi
		sleep 0.1
	done
	echo "serve_vs_aimock: no $2 in $1:" >&2
	cat "$1" >&2
	exit 1
}

"$tmp/agentvcr" serve -cassette parallel >"$tmp/serve.out" 2>"$tmp/serve.err" &
pids+=($!)
"$tmp/agentvcr" serve -cassette parallel -coalesce >"$tmp/one.out" 2>"$tmp/one.err" &
pids+=($!)
"$tmp/servebench" -cassette cassettes/parallel.yaml -bare-serve >"$tmp/bare.out" 2>"$tmp/bare.err" &
pids+=($!)
node "$tmp/npm/node_modules/@copilotkit/aimock/dist/cli.js" -p 0 -c 6 -f "$tmp/fixture.json" --log-level info >"$tmp/aimock.out" 2>&1 &
pids+=($!)

serve=$(wait_for "$tmp/serve.out" 'http://127.0.0.1:[0-9]*/v1')
one=$(wait_for "$tmp/one.out" 'http://127.0.0.1:[0-9]*/v1')
bare=$(wait_for "$tmp/bare.out" 'http://127.0.0.1:[0-9]*/v1')
aimock=$(wait_for "$tmp/aimock.out" 'http://127.0.0.1:[0-9]*')/v1

echo "agentvcr serve $serve, agentvcr serve -coalesce $one, bare $bare, aimock ${AIMOCK_VERSION:-1.43.0} $aimock; $(nproc) cores"
"$tmp/servebench" -cassette cassettes/parallel.yaml -expect tool_calls \
	-clients "${CLIENTS:-1,16,128}" -rounds "${ROUNDS:-3}" -duration "${DURATION:-3s}" \
	-floor bare -target "agentvcr=$serve" -target "agentvcr-one=$one" -target "bare=$bare" -target "aimock=$aimock"
