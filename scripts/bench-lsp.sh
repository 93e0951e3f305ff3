#!/usr/bin/env bash
# bench-lsp.sh DIR: the author's loop at scale (issue 30). Drives `charter
# lsp` with VS Code's own client library (vscode-languageserver-protocol,
# internal/testkit/npmtools/lspdrive.mjs) on generated repositories of
# 2,000 and 10,000 agents: 50 edits of 5 agents' files spaced 0.2 s to 3 s
# apart, undos included, didChange to publishDiagnostics (target: p95 <=
# 300 ms), then 1,000 quick edits with the server's RSS every 100 (target:
# flat). Each run ends by comparing the client's diagnostics with charter
# lint's on the same text.
#
# Needs Go, node and npm ci --prefix internal/testkit/npmtools.
# Usage: scripts/bench-lsp.sh DIR      SIZES="2000" EDITS=50 scripts/bench-lsp.sh DIR
set -euo pipefail

dir=${1:?usage: scripts/bench-lsp.sh DIR}
sizes=${SIZES:-2000 10000}
edits=${EDITS:-50}
memedits=${MEMEDITS:-1000}
repo=$(cd "$(dirname "$0")/.." && pwd)
driver=$repo/internal/testkit/npmtools/lspdrive.mjs
[[ -d $repo/internal/testkit/npmtools/node_modules/vscode-languageserver-protocol ]] ||
	{ echo "bench-lsp: run npm ci --prefix internal/testkit/npmtools" >&2; exit 2; }
mkdir -p "$dir"
go build -o "$dir/charter" "$repo/cmd/charter"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
trap 'echo "load average at the end: $(cut -d" " -f1-3 /proc/loadavg)"' EXIT
for n in $sizes; do
	rm -rf "$dir/gen-$n"
	(cd "$repo" && go run -tags gen ./internal/testkit/gen/cmd/gen -n "$n" -o "$dir/gen-$n")
	node "$driver" --charter "$dir/charter" --root "$dir/gen-$n" --edits "$edits" --min 0.2 --max 3 --seed 1 >"$dir/lsp-$n.json" || true
	node -e '
		const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		console.log(`${process.argv[2]} agents: ${r.edits} edits, didChange -> publishDiagnostics p50 ${r.p50} ms, p95 ${r.p95} ms, max ${r.max} ms, server CPU ${r.cpuMsPerEdit} ms an edit; first evaluation ${r.firstEvaluationMs} ms; ${r.failure ?? (r.mismatch ? "DIFFERS from charter lint" : "equal to charter lint")}`);
	' "$dir/lsp-$n.json" "$n"
	(cd "$repo" && go run -tags gen ./internal/testkit/gen/cmd/gen -n "$n" -o "$dir/gen-$n")
	node "$driver" --charter "$dir/charter" --root "$dir/gen-$n" --edits "$memedits" --min 0.02 --max 0.1 --seed 2 --rss-every 100 >"$dir/lsp-mem-$n.json" || true
	node -e '
		const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		console.log(`${process.argv[2]} agents, ${r.edits} quick edits: RSS MiB ` + r.rss.map((x) => `${x.edit}:${Math.round(x.rss / 1048576)}`).join(" ") + `; p95 ${r.p95} ms, server CPU ${r.cpuMsPerEdit} ms an edit; ${r.failure ?? (r.mismatch ? "DIFFERS from charter lint" : "equal to charter lint")}`);
	' "$dir/lsp-mem-$n.json" "$n"
done
