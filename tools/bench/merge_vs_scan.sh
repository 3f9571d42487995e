#!/usr/bin/env bash
# merge_vs_scan.sh [OLD [NEW]]: times `agentvcr merge` on a 64 MiB stream of
# each of chat, messages and responses (written by tools/bench/genstream)
# against the floor, a bare scan for `data:` lines of the same file
# (tools/bench/linescan), whole process, and prints per format the median of
# RUNS (default 5) runs: CPU seconds (user+sys), MB/s of CPU time, wall
# seconds, peak RSS in MiB, and the CPU ratio to the line scan. Each run goes
# through tools/bench/cputime (rusage, to the microsecond).
#
# OLD and NEW are agentvcr binaries; NEW defaults to a build of this tree.
# With OLD given, both are timed in the same rounds, alternating (scan, old,
# new, for each format, RUNS times), so a busy machine weighs on both alike:
#
#	git stash; go build -o /tmp/old ./cmd/agentvcr; git stash pop
#	bash tools/bench/merge_vs_scan.sh /tmp/old
#
# MIB (default 64) sets the stream size; the streams are written once to a
# temporary folder (kept, and reused, when STREAMS names a folder).
set -euo pipefail

runs=${RUNS:-5}
mib=${MIB:-64}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
streams=${STREAMS:-$tmp}
mkdir -p "$streams"
(cd "$repo" && go build -o "$tmp/linescan" ./tools/bench/linescan && go build -o "$tmp/cputime" ./tools/bench/cputime)
old=${1:-}
new=${2:-}
if [[ -z $new ]]; then
	(cd "$repo" && go build -o "$tmp/agentvcr" ./cmd/agentvcr)
	new=$tmp/agentvcr
fi
formats=(chat messages responses)
for f in "${formats[@]}"; do
	if [[ ! -s $streams/$f-$mib.sse ]]; then
		(cd "$repo" && go run ./tools/bench/genstream -format "$f" -mib "$mib" >"$streams/$f-$mib.sse" 2>/dev/null)
	fi
done

# run NAME CMD...: runs CMD once through cputime and appends
# "wall user sys rss_kib" to $tmp/NAME.
run() {
	local name=$1
	shift
	"$tmp/cputime" "$@" 2>>"$tmp/$name" >/dev/null
}

echo "streams: ${mib} MiB each; runs: $runs; load at start:$(uptime | sed 's/.*load average://')"
for ((i = 0; i < runs; i++)); do
	for f in "${formats[@]}"; do
		file=$streams/$f-$mib.sse
		run "scan-$f" "$tmp/linescan" "$file"
		if [[ -n $old ]]; then
			run "old-$f" "$old" merge -api "$f" "$file"
		fi
		run "new-$f" "$new" merge -api "$f" "$file"
	done
done
echo "load at end:$(uptime | sed 's/.*load average://')"

# median NAME EXPR: the median over the runs of NAME of an awk expression of
# the fields wall ($1), user ($2), sys ($3) and rss ($4).
median() {
	awk "{ print $2 }" "$tmp/$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%.4f", v[int((NR + 1) / 2)] }'
}

printf '%-10s %-8s %9s %9s %9s %8s %9s\n' format binary cpu_s 'MB/s' wall_s rss_MiB x_scan
for f in "${formats[@]}"; do
	bytes=$(stat -c %s "$streams/$f-$mib.sse")
	scan_cpu=$(median "scan-$f" '$2 + $3')
	for who in scan old new; do
		[[ -f $tmp/$who-$f ]] || continue
		cpu=$(median "$who-$f" '$2 + $3')
		wall=$(median "$who-$f" '$1')
		rss=$(median "$who-$f" '$4 / 1024')
		awk -v f="$f" -v who="$who" -v b="$bytes" -v c="$cpu" -v w="$wall" -v r="$rss" -v s="$scan_cpu" \
			'BEGIN { printf "%-10s %-8s %9.3f %9.0f %9.3f %8.1f %9.2f\n", f, who, c, (c > 0 ? b / c / 1e6 : 0), w, r, (s > 0 ? c / s : 0) }'
	done
done
