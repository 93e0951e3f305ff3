#!/usr/bin/env bash
# bench-cache.sh DIR: charter lint --staged after a one-agent edit, through
# the cache (the base made by the run before the edit) against a full lint
# (--no-cache), alternating, on a generated repository (issue 30: the
# cached run at most 25% of the full one). Also the first run, which
# evaluates in full and writes the base (once), and the run over
# unchanged files (the stored outcome). Prints each run's wall time, CPU time (user
# + system) and peak RSS, and the medians; every cached run's output is
# compared with the full run's (it must be the same bytes).
#
# Usage: scripts/bench-cache.sh DIR      N=10000 RUNS=5 scripts/bench-cache.sh DIR
# Needs Go, git and GNU time (apt-get install -y time).
set -euo pipefail

dir=${1:?usage: scripts/bench-cache.sh DIR}
n=${N:-2000}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
gnutime=/usr/bin/time
[[ -x $gnutime ]] || { echo "bench-cache: needs GNU time: apt-get install -y time" >&2; exit 2; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=bench@example.com

rm -rf "$dir"
mkdir -p "$dir"
bin=$dir/charter
(cd "$repo" && go build -o "$bin" ./cmd/charter)
cfg=$dir/repo
(cd "$repo" && go run -tags gen ./internal/testkit/gen/cmd/gen -n "$n" -o "$cfg")
git -C "$cfg" init -q -b main
git -C "$cfg" add -A
git -C "$cfg" commit -q -m generated
export CHARTER_CACHE_DIR=$dir/cache

edited=$cfg/agents/$(ls "$cfg/agents" | sed -n "$((n / 2))p")
measure() { # LABEL ARGS...: one run, its figures on stdout
	local label=$1
	shift
	(cd "$cfg" && $gnutime -f "%e %U %S %M" -o "$dir/time" "$bin" "$@" >"$dir/out.$label" 2>"$dir/err.$label") || true
	read -r wall user sys rss < <(tail -n 1 "$dir/time")
	echo "$label $wall $(echo "$user + $sys" | bc) $((rss / 1024))"
}
echo "# N=$n, $(uptime | sed 's/.*load/load/')"
echo "# label wall_s cpu_s rss_MiB"
measure base lint --staged --format json | tee "$dir/runs" # the first run, which writes the base
for i in $(seq 1 "$runs"); do
	sed -i "0,/budget_limit: [0-9]*/s//budget_limit: $((i * 7 % 100 + 1))/" "$edited"
	git -C "$cfg" add -A
	measure full lint --staged --no-cache --format json
	measure cached lint --staged --format json
	cmp -s "$dir/out.full" "$dir/out.cached" || { echo "bench-cache: the cached output differs from the full one" >&2; exit 1; }
	measure hit lint --staged --format json
	cmp -s "$dir/out.full" "$dir/out.hit" || { echo "bench-cache: the stored output differs from the full one" >&2; exit 1; }
done | tee -a "$dir/runs"
echo "# medians: label wall_s cpu_s rss_MiB"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for label in base full cached hit; do
	echo "$label $(grep "^$label " "$dir/runs" | cut -d' ' -f2 | median) $(grep "^$label " "$dir/runs" | cut -d' ' -f3 | median) $(grep "^$label " "$dir/runs" | cut -d' ' -f4 | median)"
done
echo "# $(uptime | sed 's/.*load/load/')"
