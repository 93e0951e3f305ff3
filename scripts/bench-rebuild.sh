#!/usr/bin/env bash
# bench-rebuild.sh DIR: charter build over the previous bundle after a
# one-agent edit, through the cache (the base made by the build before
# the edit), against a full build into a folder of its own (--no-cache,
# which also starts from its previous bundle), alternating, on a
# generated repository (issue 30: the build over the previous bundle at
# most 10% of a full one). The edit changes a personality: team.json's
# pair sums and extremes change with it. Prints each run's wall time, CPU
# time (user + system) and peak RSS, and the medians; after every pair of
# runs the two folders must hold the same files with the same bytes.
#
# Usage: scripts/bench-rebuild.sh DIR      N=10000 RUNS=5 scripts/bench-rebuild.sh DIR
# Needs Go and GNU time (apt-get install -y time).
set -euo pipefail

dir=${1:?usage: scripts/bench-rebuild.sh DIR}
n=${N:-2000}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
gnutime=/usr/bin/time
[[ -x $gnutime ]] || { echo "bench-rebuild: needs GNU time: apt-get install -y time" >&2; exit 2; }

rm -rf "$dir"
mkdir -p "$dir"
bin=$dir/charter
(cd "$repo" && go build -o "$bin" ./cmd/charter)
cfg=$dir/repo
(cd "$repo" && go run -tags gen ./internal/testkit/gen/cmd/gen -n "$n" -o "$cfg")
export CHARTER_CACHE_DIR=$dir/cache

edited=$cfg/agents/$(ls "$cfg/agents" | sed -n "$((n / 2))p")
measure() { # LABEL ARGS...: one run, its figures on stdout
	local label=$1
	shift
	(cd "$cfg" && $gnutime -f "%e %U %S %M" -o "$dir/time" "$bin" "$@" >"$dir/out.$label" 2>"$dir/err.$label") || {
		echo "bench-rebuild: $label failed:" >&2
		cat "$dir/err.$label" >&2
		exit 1
	}
	read -r wall user sys rss < <(tail -n 1 "$dir/time")
	echo "$label $wall $(echo "$user + $sys" | bc) $((rss / 1024))"
}
echo "# N=$n, $(uptime | sed 's/.*load/load/')"
echo "# label wall_s cpu_s rss_MiB"
{
	measure base build --out "$dir/dist"              # the first build, which writes the base
	measure full build --no-cache --out "$dir/fresh" # the full build's own previous bundle
} | tee "$dir/runs"
for i in $(seq 1 "$runs"); do
	sed -i -E "0,/openness: +[0-9.]+/s//openness: 0.$((i * 37 % 90 + 10))/" "$edited"
	measure full build --no-cache --out "$dir/fresh"
	measure over build --out "$dir/dist"
	diff -r "$dir/fresh" "$dir/dist" >/dev/null || { echo "bench-rebuild: the bundle built over the previous one differs from the full build's" >&2; exit 1; }
done | tee -a "$dir/runs"
echo "# medians: label wall_s cpu_s rss_MiB"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for label in full over; do
	echo "$label $(grep "^$label " "$dir/runs" | cut -d' ' -f2 | median) $(grep "^$label " "$dir/runs" | cut -d' ' -f3 | median) $(grep "^$label " "$dir/runs" | cut -d' ' -f4 | median)"
done
echo "# $(uptime | sed 's/.*load/load/')"
