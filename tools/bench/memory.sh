#!/usr/bin/env bash
# memory.sh OLD NEW: replay and serve memory of two agentvcr binaries, side
# by side. It writes one-reply cassettes with gencassette (about
# 14, 28 and 57 MB for replay: 13, 26 and 52 MiB of stream; about 52, 104
# and 207 MB for serve) into a temporary folder, then times, RUNS times
# each (default 5), old and new alternating:
#   replay: OLD|NEW run -cassette FILE >/dev/null (a sandbox of its own)
#   serve:  OLD|NEW serve -cassette FILE -listen 127.0.0.1:0, until it
#           prints its URL, then Ctrl-C (SIGINT)
# under /usr/bin/time -f "%e %U %S %M" and prints the medians of wall,
# CPU (user+sys) and maximum RSS (MiB), and for serve the time to the URL
# line. Build the binaries first, e.g.
#   git stash; go build -o /tmp/old ./cmd/agentvcr; git stash pop
#   go build -o /tmp/new ./cmd/agentvcr
#   tools/bench/memory.sh /tmp/old /tmp/new
# SIZES_REPLAY and SIZES_SERVE (MiB of stream, space-separated) change the
# sizes; GOGC and GOMEMLIMIT pass through to both binaries.
set -euo pipefail

old=${1:?usage: memory.sh OLD NEW}
new=${2:?usage: memory.sh OLD NEW}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one RUN BIN FILE: replay, appends "wall cpu rss_kib" to $tmp/times.
replay() {
	/usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$1" run -cassette "$2" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; return 1; }
	awk '{ print $1, $2 + $3, $4 }' "$tmp/t" >>"$tmp/times"
}

# serve BIN FILE: serve until its URL line, appends "wall cpu rss_kib
# start_s" to $tmp/times.
serve() {
	local start pid line url_at
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	start=$(date +%s.%N)
	/usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$1" serve -cassette "$2" -listen 127.0.0.1:0 >"$tmp/fifo" 2>"$tmp/err" &
	pid=$!
	exec 3<"$tmp/fifo"
	if ! read -r line <&3; then
		cat "$tmp/err" >&2
		exec 3<&-
		return 1
	fi
	url_at=$(date +%s.%N)
	# /usr/bin/time is $pid; agentvcr is its child
	kill -INT "$(pgrep -P "$pid")" || true
	wait "$pid" || true
	exec 3<&-
	awk -v s="$(awk -v a="$start" -v b="$url_at" 'BEGIN { print b - a }')" '{ print $1, $2 + $3, $4, s }' "$tmp/t" >>"$tmp/times"
}

# median COLUMN: the median of that column of $tmp/times.
median() {
	cut -d' ' -f"$1" "$tmp/times" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# table KIND MIB...: one row per size and binary.
table() {
	local kind=$1 mib file bin i
	shift
	for mib in "$@"; do
		file=$tmp/big$mib.yaml
		(cd "$repo" && go run ./tools/bench/gencassette -mib "$mib") >"$file"
		for bin in old new; do : >"$tmp/times.$bin"; done
		for ((i = 0; i < runs; i++)); do
			for bin in old new; do
				: >"$tmp/times"
				"$kind" "${!bin}" "$file"
				cat "$tmp/times" >>"$tmp/times.$bin"
			done
		done
		for bin in old new; do
			cp "$tmp/times.$bin" "$tmp/times"
			printf '%-6s %4d MiB stream, %6.1f MB file  %-3s  wall %6.2f s  cpu %6.2f s  rss %6.0f MiB' \
				"$kind" "$mib" "$(stat -c %s "$file" | awk '{ print $1 / 1e6 }')" "$bin" \
				"$(median 1)" "$(median 2)" "$(median 3 | awk '{ print $1 / 1024 }')"
			[[ $kind == serve ]] && printf '  url after %5.2f s' "$(median 4)"
			echo
		done
		rm -f "$file"
	done
}

echo "runs: $runs; GOGC=${GOGC:-} GOMEMLIMIT=${GOMEMLIMIT:-}; load:$(uptime | sed 's/.*load average://')"
table replay ${SIZES_REPLAY:-13 26 52}
table serve ${SIZES_SERVE:-48 95 189}
echo "load at the end:$(uptime | sed 's/.*load average://')"
