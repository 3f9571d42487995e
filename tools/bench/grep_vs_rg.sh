#!/usr/bin/env bash
# grep_vs_rg.sh [DIR]: times `agentvcr tool grep` against ripgrep (`rg -n`) on
# the same tree, whole process, and prints the median of RUNS (default 5) runs
# of each, wall and CPU (user+sys) seconds, and the ratios ours/rg.
# DIR defaults to Go's own source tree, $(go env GOROOT)/src. Without rg on
# PATH it times agentvcr alone and says so (apt-get install ripgrep). The
# patterns are a literal, a regular expression whose only literal is in its
# middle, a case-folded literal and a pattern with thousands of hits. grep
# stops at its hit limit (50 hits, in path order), so on the last one rg's
# output goes through `head -n 50`, which stops rg as soon as it has printed
# 50 lines: both print 50 hits and stop (rg's in the order its threads find
# them). With BASE set to
# another agentvcr binary (an older build), it times that one too, in the
# same run, for a before/after comparison.
set -euo pipefail

dir=${1:-$(go env GOROOT)/src}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/agentvcr" ./cmd/agentvcr)

# measure CMD...: runs CMD $runs times and prints "median_wall median_cpu".
measure() {
	local i out times=()
	for ((i = 0; i < runs; i++)); do
		out=$({ TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1)
		times+=("$out")
	done
	printf '%s\n' "${times[@]}" | awk '{ print $1, $2 + $3 }' >"$tmp/times"
	echo "$(median 1) $(median 2)"
}

# median COLUMN: the median of that column of $tmp/times.
median() {
	cut -d' ' -f"$1" "$tmp/times" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'
}

# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

have_rg=1
if ! command -v rg >/dev/null; then
	have_rg=0
	echo "note: ripgrep (rg) is not installed; timing agentvcr alone (apt-get install ripgrep)"
fi

echo "tree: $dir ($(du -sh "$dir" | cut -f1)); runs: $runs; load:$(uptime | sed 's/.*load average://')"
printf '%-26s %9s %9s %9s %9s %7s %7s\n' pattern ours_wall ours_cpu rg_wall rg_cpu x_wall x_cpu
many='errors\.New\("'
for pattern in 'MarshalCompressed' '[A-Z]\w+Compressed[(]' '(?i)marshalcompressed' "$many"; do
	quoted=${pattern//\\/\\\\}
	args=$(printf '{"pattern":"%s"}' "${quoted//\"/\\\"}")
	read -r ow oc < <(measure "$tmp/agentvcr" tool -C "$dir" -lang en grep "$args")
	if ((have_rg)); then
		if [[ $pattern == "$many" ]]; then
			read -r rw rc < <(cd "$dir" && measure bash -c 'rg -n "$1" | head -n 50' _ "$pattern")
		else
			read -r rw rc < <(cd "$dir" && measure rg -n "$pattern")
		fi
		printf '%-26s %9s %9s %9s %9s %7s %7s\n' "$pattern" "$ow" "$oc" "$rw" "$rc" "$(ratio "$ow" "$rw")" "$(ratio "$oc" "$rc")"
	else
		printf '%-26s %9s %9s %9s %9s %7s %7s\n' "$pattern" "$ow" "$oc" - - - -
	fi
	if [[ -n ${BASE:-} ]]; then
		read -r bw bc < <(measure "$BASE" tool -C "$dir" -lang en grep "$args")
		printf '%-26s %9s %9s   (BASE %s; ours/BASE: wall %s, cpu %s)\n' "" "$bw" "$bc" "$BASE" "$(ratio "$ow" "$bw")" "$(ratio "$oc" "$bc")"
	fi
done
