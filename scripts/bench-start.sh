#!/usr/bin/env bash
# bench-start.sh DIR: process start (issue 30). Medians of RUNS (20)
# alternating runs, in milliseconds of wall time, against a hello-world Go
# program built with the same toolchain:
#
#   charter version                                   (target <= 3x hello)
#   the Claude Code hook: one PreToolUse call         (target <= 5x hello)
#     (charter eval --protocol claude-code --bundle, on the starter's bundle,
#     and charter-hook, the same hook as a program that links no CUE)
#   charter lint on the starter repository            (target <= 10x hello)
#     (as pre-commit runs it, through its cache; and with --no-cache)
#
# Also GODEBUG=inittrace=1's sums for charter version (package
# initialisation: clock and heap). Needs Go. BASE=PATH (another charter
# binary, e.g. main's) runs it too, in the same alternation, for a
# before/after on a busy machine. BIG=N also times the hook on a
# generated N-agent bundle (a large organisation's: every call reads its
# manifest).
set -euo pipefail

dir=${1:?usage: scripts/bench-start.sh DIR}
runs=${RUNS:-20}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/hello"
bin=$dir/charter
(cd "$repo" && go build -o "$bin" ./cmd/charter && go build -o "$dir/charter-hook" ./cmd/charter-hook)
cat >"$dir/hello/main.go" <<'GO'
package main

import "fmt"

func main() { fmt.Println("hello, world") }
GO
(cd "$dir/hello" && { [[ -f go.mod ]] || go mod init hello >/dev/null 2>&1; } && go build -o "$dir/hello-bin" .)
starter=$dir/starter
rm -rf "$starter" "$dir/state"
mkdir -p "$starter" "$dir/state"
(cd "$starter" && "$bin" init >/dev/null && "$bin" build --out "$dir/starter-dist" >/dev/null)
agent=$(cd "$dir/starter-dist" && ls -d agents/*/ | head -1 | xargs basename)
cat >"$dir/pre.json" <<JSON
{"session_id": "bench", "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "README.md"}}
JSON

big=${BIG:-}
if [[ -n $big ]]; then
	rm -rf "$dir/big" "$dir/big-dist"
	(cd "$repo" && go run -tags gen ./internal/testkit/gen/cmd/gen -n "$big" -o "$dir/big" >/dev/null)
	(cd "$dir/big" && "$bin" build --no-cache --out "$dir/big-dist" >/dev/null)
	bigagent=$(cd "$dir/big-dist" && ls agents | head -1)
fi

# us CMD...: the wall time of one run in microseconds. The clock is bash's
# own $EPOCHREALTIME: a `date` process to read it would be timed too (its
# start, a few milliseconds, counted into every sample, made each ratio
# look smaller than it is). Its decimal point is the locale's (a comma in
# de_DE, which arithmetic reads as its comma operator): every non-digit
# goes.
us() {
	local t0 t1
	t0=${EPOCHREALTIME//[!0-9]/}
	"$@" >/dev/null 2>&1 </dev/null || true
	t1=${EPOCHREALTIME//[!0-9]/}
	echo $((t1 - t0))
}
base=${BASE:-}
fasthook() { "$dir/charter-hook" --bundle "$dir/starter-dist" --agent "$agent" --state-dir "$dir/state" <"$dir/pre.json"; }
hook() { "${1:-$bin}" eval --bundle "$dir/starter-dist" --agent "$agent" --protocol claude-code --state-dir "$dir/state" <"$dir/pre.json"; }
bighook() { "${1:-$bin}" eval --bundle "$dir/big-dist" --agent "$bigagent" --protocol claude-code --state-dir "$dir/state" <"$dir/pre.json"; }
median() { sort -n | awk '{a[NR] = $1} END {m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.1f", m / 1000}'; }

declare -A samples
for ((i = 0; i < runs; i++)); do
	samples[hello]+="$(us "$dir/hello-bin") "
	samples[version]+="$(us "$bin" version) "
	samples[hello]+="$(us "$dir/hello-bin") "
	samples[hook]+="$(us hook) "
	samples[hello]+="$(us "$dir/hello-bin") "
	samples[fasthook]+="$(us fasthook) "
	samples[hello]+="$(us "$dir/hello-bin") "
	samples[lint]+="$(us "$bin" -C "$starter" lint) "
	samples[hello]+="$(us "$dir/hello-bin") "
	samples[lintfresh]+="$(us "$bin" -C "$starter" lint --no-cache) "
	if [[ -n $big ]]; then
		samples[bighook]+="$(us bighook) "
		[[ -n $base ]] && samples[base-bighook]+="$(us bighook "$base") "
	fi
	if [[ -n $base ]]; then
		samples[base-version]+="$(us "$base" version) "
		samples[base-hook]+="$(us hook "$base") "
		# Its own cache: a cache entry names the binary that wrote it, so
		# sharing one would make both miss every time.
		samples[base-lint]+="$(CHARTER_CACHE_DIR=$dir/base-cache us "$base" -C "$starter" lint) "
	fi
done
h=$(tr ' ' '\n' <<<"${samples[hello]}" | grep . | median)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; $runs alternating runs, medians"
printf '%-34s %7s ms\n' "hello world (same toolchain)" "$h"
keys="version hook fasthook lint lintfresh"
[[ -n $base ]] && keys+=" base-version base-hook base-lint"
[[ -n $big ]] && keys+=" bighook"
[[ -n $big && -n $base ]] && keys+=" base-bighook"
for k in $keys; do
	m=$(tr ' ' '\n' <<<"${samples[$k]}" | grep . | median)
	case $k in
	version) name="charter version" target=3 ;;
	hook) name="hook, one PreToolUse" target=5 ;;
	fasthook) name="charter-hook, one PreToolUse" target=5 ;;
	lint) name="charter lint (starter)" target=10 ;;
	lintfresh) name="charter lint --no-cache (starter)" target=10 ;;
	base-version) name="BASE: charter version" target=3 ;;
	base-hook) name="BASE: hook, one PreToolUse" target=5 ;;
	base-lint) name="BASE: charter lint (starter)" target=10 ;;
	bighook) name="hook, $big agents" target=0 ;;
	base-bighook) name="BASE: hook, $big agents" target=0 ;;
	esac
	awk -v n="$name" -v m="$m" -v h="$h" -v t="$target" 'BEGIN { printf "%-34s %7.1f ms %6.1fx hello", n, m, m / h; if (t) printf " (target <= %dx)", t; printf "\n" }'
done
GODEBUG=inittrace=1 "$bin" version 2>&1 >/dev/null | awk '$1 == "init" { c += $5; b += $8; if ($2 ~ /charter-dev/) { oc += $5; ob += $8 } }
	END { printf "package initialisation (charter version): %.1f ms clock, %.2f MB; charter'"'"'s own packages %.1f ms, %.2f MB\n", c, b / 1e6, oc, ob / 1e6 }'
