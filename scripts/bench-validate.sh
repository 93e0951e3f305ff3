#!/usr/bin/env bash
# bench-validate.sh DIR: compare `charter validate` with `cue vet -c` on the
# same files, wall time and peak memory.
#
# It generates a repository of N agents (default 2000) into DIR with
# internal/gen, builds charter, and writes DIR.cue-vet: the same files plus
# charter's schema and standard library (cue/schema, cue/stdlib) and a file
# that applies the schema to every top-level map, the twin cue vet checks.
# Then it runs each tool RUNS times (default 5), alternating, under GNU time,
# and prints the median wall time and peak RSS of each and charter's ratio
# to cue vet (the target: at most 1.2 on both).
#
# Needs: Go; GNU time at /usr/bin/time (apt-get install -y time); cue v0.17.1
# (go install cuelang.org/go/cmd/cue@v0.17.1; or set CUE=/path/to/cue).
#
# Usage: scripts/bench-validate.sh DIR        N=10000 RUNS=7 scripts/bench-validate.sh DIR
set -euo pipefail

dir=${1:?usage: scripts/bench-validate.sh DIR}
n=${N:-2000}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
cue=${CUE:-$(command -v cue || echo "$HOME/go/bin/cue")}
gnutime=/usr/bin/time

[[ -x $gnutime ]] && $gnutime -v true 2>/dev/null || { echo "bench-validate: needs GNU time: apt-get install -y time" >&2; exit 2; }
[[ -x $cue ]] || { echo "bench-validate: needs cue: go install cuelang.org/go/cmd/cue@v0.17.1, or set CUE" >&2; exit 2; }

# The repository, charter, and the cue vet twin.
rm -rf "$dir" "$dir.cue-vet"
mkdir -p "$dir"
(cd "$repo" && go run ./internal/gen/cmd/gen -n "$n" -o "$dir")
bin=$(mktemp -d)/charter
trap 'rm -rf "$(dirname "$bin")"' EXIT
(cd "$repo" && go build -o "$bin" ./cmd/charter)

twin=$dir.cue-vet
cp -R "$dir" "$twin"
for f in "$repo"/cue/schema/*.cue "$repo"/cue/stdlib/*.cue; do
	# Named so that none ends in _test.cue, which cue would leave out.
	kind=$(basename "$(dirname "$f")")
	cp "$f" "$twin/charter_${kind}_$(basename "$f" .cue)_def.cue"
done
cat >"$twin/charter_apply.cue" <<'CUE'
package charter

// What charter does in Go: every declaration against its definition.
categories: [string]:    #Category
agentTypes: [string]:    #AgentType
presets: [string]:       #Preset
behaviorTypes: [string]: #BehaviorType
profiles: [string]:      #Profile
agents: [string]:        #Agent
tests: [string]:         #Test
models: [string]:        #ModelInfo
lint?:                   #LintSettings
a2a?:                    #A2ASettings
CUE

echo "charter: $("$bin" -C "$dir" validate)"
# ./agents is the package instance that holds every file: cue adds the files
# of the same package in the folders above it.
(cd "$twin" && "$cue" vet -c ./agents) || { echo "bench-validate: cue vet fails on the twin" >&2; exit 1; }
echo "cue vet: ok"

tmp=$(mktemp -d)
trap 'rm -rf "$(dirname "$bin")" "$tmp"' EXIT
for ((i = 0; i < runs; i++)); do
	$gnutime -f '%e %M' -a -o "$tmp/charter" "$bin" -C "$dir" validate >/dev/null
	(cd "$twin" && $gnutime -f '%e %M' -a -o "$tmp/cue" "$cue" vet -c ./agents >/dev/null)
done

# median FILE COLUMN
median() { awk -v c="$2" '{print $c}' "$1" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
cw=$(median "$tmp/charter" 1) cm=$(median "$tmp/charter" 2)
vw=$(median "$tmp/cue" 1) vm=$(median "$tmp/cue" 2)
awk -v n="$n" -v runs="$runs" -v cw="$cw" -v cm="$cm" -v vw="$vw" -v vm="$vm" 'BEGIN {
	printf "\n%d agents, %d runs each, median:\n", n, runs
	printf "%-16s %8s %10s\n", "", "wall s", "peak MiB"
	printf "%-16s %8.2f %10.1f\n", "charter validate", cw, cm / 1024
	printf "%-16s %8.2f %10.1f\n", "cue vet -c", vw, vm / 1024
	printf "%-16s %8.2f %10.2f\n", "ratio", cw / vw, cm / vm
}'
