#!/usr/bin/env bash
# bench.sh DIR: time charter against the tools it is measured by, on the
# same input, in one run (median wall time, CPU time (user + system) and
# peak RSS of RUNS runs each, alternating, and charter's ratios). The targets (issue 16) hold at 2,000
# and at 10,000 agents:
#
#   charter validate      vs  cue vet -c                  (target <= 1.0x)
#   charter build         vs  cue export                  (target <= 1.0x),
#                                            over the previous bundle, and
#                                            into a new directory
#   charter lint          vs  charter validate            (target <= 1.1x)
#   charter diff A B      vs  charter build               (target <= 2x)
#   charter log AGENT     vs  git log -- config           (target <= 10x),
#                             5,000 commits (1,000 change the config), or
#                             50,000 (10,000) with COMMITS=50000
#   charter lint on the starter repository                (target < 50 ms)
#   charter lint --staged after a one-agent edit, through the cache,
#                         vs  --no-cache                  (target <= 25%;
#                             scripts/bench-cache.sh)
#
# It also prints the bundle's size (all files, and team.json), which must
# grow linearly with the agents: above 500 agents team.json holds no
# all-pairs matrix (docs/bundle.md).
#
# cue gets the same files with charter's schema and standard library beside
# them, and a file that applies each definition to its declarations, so both
# do the same evaluation. The history is scripts/bench-history.sh's.
#
# Needs Go, git, GNU time (apt-get install -y time) and cue v0.17.1
# (go install cuelang.org/go/cmd/cue@v0.17.1, or set CUE).
# Usage: scripts/bench.sh DIR     N=2000 RUNS=5 scripts/bench.sh DIR
#        N=10000 COMMITS=50000 RUNS=1 scripts/bench.sh DIR   (the large case:
#        about 10 minutes on 2 cores)
set -euo pipefail

dir=${1:?usage: scripts/bench.sh DIR}
n=${N:-2000}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
cue=${CUE:-$(command -v cue || echo "$HOME/go/bin/cue")}
gnutime=/usr/bin/time
[[ -x $gnutime ]] && $gnutime -v true 2>/dev/null || { echo "bench: needs GNU time: apt-get install -y time" >&2; exit 2; }
[[ -x $cue ]] || { echo "bench: needs cue: go install cuelang.org/go/cmd/cue@v0.17.1, or set CUE" >&2; exit 2; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=bench@example.com
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

rm -rf "$dir"
mkdir -p "$dir"
bin=$dir/charter
(cd "$repo" && go build -o "$bin" ./cmd/charter)

# The repository, as a Git repository with two commits (for diff).
cfg=$dir/repo
(cd "$repo" && go run -tags gen ./internal/testkit/gen/cmd/gen -n "$n" -o "$cfg")
git -C "$cfg" init -q -b main
git -C "$cfg" add -A
git -C "$cfg" commit -q -m generated
# The second commit changes a tenth of the agents.
for f in $(ls "$cfg"/agents/*.cue | awk 'NR % 10 == 0'); do
	sed -i 's/temperature: 0\.[0-9]*/temperature: 0.99/' "$f"
done
git -C "$cfg" commit -q -a -m "warmer agents"

# The cue twin: the same files, charter's schema and stdlib, and the apply file.
twin=$dir/twin
cp -R "$cfg" "$twin"
rm -rf "$twin/.git"
for f in "$repo"/cue/schema/*.cue "$repo"/cue/stdlib/*.cue; do
	cp "$f" "$twin/charter_$(basename "$(dirname "$f")")_$(basename "$f" .cue)_def.cue"
done
cat >"$twin/charter_apply.cue" <<'CUE'
package charter

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
(cd "$twin" && "$cue" vet -c ./agents) || { echo "bench: cue vet fails on the twin" >&2; exit 1; }

# The history.
hist=$dir/history
COMMITS=${COMMITS:-5000} GENERATE_ONLY=1 bash "$repo/scripts/bench-history.sh" "$hist" >/dev/null
agent=$(git -C "$hist" log --format= --name-only -- config/agents | sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}' | sed 's#.*/##; s#\.cue##')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { awk -v c="$2" '$1 ~ /^[0-9.]+$/ {print $c}' "$1" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# cpu FILE: the median of user + system seconds. On a shared machine wall
# time moves with the load; CPU time is the figure to compare.
cpu() { awk '$1 ~ /^[0-9.]+$/ {print $3 + $4}' "$1" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# timed NAME OUT CMD runs CMD under GNU time, appending its figures to OUT.
# Exit 1 is a command's answer (lint's findings); anything above is a
# failure, and a failed run must not be timed as if it had worked.
timed() {
	local st=0
	$gnutime -f '%e %M %U %S' -a -o "$2" sh -c "$3" >/dev/null 2>"$tmp/stderr" || st=$?
	if ((st > 1)); then
		echo "bench: $1 failed (exit $st):" >&2
		cat "$tmp/stderr" >&2
		exit 1
	fi
}

# pair NAME_A NAME_B -- runs "A" and "B" (each a shell command) RUNS times,
# alternating, and prints the medians and ratios.
pair() {
	local na=$1 nb=$2 ca=$3 cb=$4
	: >"$tmp/a"
	: >"$tmp/b"
	for ((i = 0; i < runs; i++)); do
		timed "$na" "$tmp/a" "$ca"
		timed "$nb" "$tmp/b" "$cb"
	done
	awk -v na="$na" -v nb="$nb" -v aw="$(median "$tmp/a" 1)" -v am="$(median "$tmp/a" 2)" -v ac="$(cpu "$tmp/a")" \
		-v bw="$(median "$tmp/b" 1)" -v bm="$(median "$tmp/b" 2)" -v bc="$(cpu "$tmp/b")" 'BEGIN {
		printf "%-26s %7.2f s %7.2f s CPU %8.1f MiB\n", na, aw, ac, am / 1024
		printf "%-26s %7.2f s %7.2f s CPU %8.1f MiB\n", nb, bw, bc, bm / 1024
		printf "%-26s %7.2fx  %7.2fx       %7.2fx\n\n", "ratio", aw / bw, ac / bc, am / bm
	}'
}

size() { du -sb "$1" | cut -f1; }
$bin -C "$cfg" build --out "$dir/dist" >/dev/null
echo "bundle: $(size "$dir/dist") bytes in $(find "$dir/dist" -type f | wc -l) files; team.json $(stat -c %s "$dir/dist/team.json") bytes"
echo "$n agents; history: $(git -C "$hist" rev-list --count main) commits, agent $agent; $runs runs each, median"
echo
pair "charter validate" "cue vet -c" "exec $bin -C $cfg validate" "cd $twin && exec $cue vet -c ./agents"
pair "charter build" "cue export" "exec $bin -C $cfg build --out $dir/dist" "cd $twin && exec $cue export ./agents"
pair "charter build (new dir)" "cue export" "exec $bin -C $cfg build --out \$(mktemp -u -d $dir/fresh.XXXXXX)" "cd $twin && exec $cue export ./agents"
rm -rf "$dir"/fresh.* "$dir"/.fresh.*
# Writing a bundle's files is most of a first build's system time: cp -r
# of the same bundle into a new directory is that floor on this machine.
pair "charter build (new dir)" "cp -r of the bundle" "exec $bin -C $cfg build --out \$(mktemp -u -d $dir/fresh.XXXXXX)" "exec cp -r $dir/dist \$(mktemp -u -d $dir/copy.XXXXXX)"
rm -rf "$dir"/fresh.* "$dir"/copy.* "$dir"/.fresh.* 
pair "charter lint" "charter validate" "exec $bin -C $cfg lint --no-cache" "exec $bin -C $cfg validate"
pair "charter diff HEAD~1 HEAD" "charter build" "exec $bin -C $cfg diff HEAD~1 HEAD" "exec $bin -C $cfg build --out $dir/dist"
pair "charter log $agent" "git log -- config" "exec $bin -C $hist/config log $agent" "exec git -C $hist log --format=%H main -- config"
# The pre-commit case: lint of the starter repository (target: under 50 ms
# wall), against the process doing nothing but start (charter --version).
starter=$dir/starter
mkdir -p "$starter"
(cd "$starter" && "$bin" init >/dev/null)
runs=$((runs * 4)) pair "charter lint (starter)" "charter --version" "exec $bin -C $starter lint" "exec $bin --version"
echo; "$repo/scripts/bench-start.sh" "$dir/start"
# lint --staged after a one-agent edit, through the cache and in full.
echo; N=$n RUNS=$runs "$repo/scripts/bench-cache.sh" "$dir/cache"
