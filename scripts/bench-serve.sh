#!/usr/bin/env bash
# Load figures for charter serve, side by side with OPA in the same run
# (docs/performance.md): vegeta at a fixed rate on loopback, over 1,000
# sessions, against `charter serve` (POST /v1/decide) and `opa run
# --server` (POST /v1/data/charter/tools/decision) serving an equivalent
# Rego policy: the same tool denial (marco may not call write_file) and
# one condition rule (no run_bash with sudo). charter does more per call
# (its gate parses the command, and every rule of marco's profile runs).
# A third server is the floor on this machine: a hello-world Go net/http
# server built with the same toolchain, which decodes the same JSON body
# and answers a fixed decision (no policy at all).
#
# usage: scripts/bench-serve.sh [RATE] [DURATION]     (default 2000 60s)
# VEGETA=... OPA=... use binaries you have; otherwise the pinned versions
# are installed with go install into .bench/bin. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${1:-2000}
DUR=${2:-60s}
SESSIONS=${SESSIONS:-1000}
W=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
BIN=$PWD/.bench/bin
mkdir -p "$BIN"
VEGETA=${VEGETA:-$BIN/vegeta}
OPA=${OPA:-$BIN/opa}
[ -x "$VEGETA" ] || GOBIN=$BIN go install github.com/tsenart/vegeta/v12@v12.13.0
[ -x "$OPA" ] || GOBIN=$BIN go install github.com/open-policy-agent/opa@v1.22.3
go build -o "$W/charter" ./cmd/charter
mkdir -p "$W/hello"
cat > "$W/hello/main.go" <<'GO'
package main

import (
	"encoding/json"
	"io"
	"net/http"
)

func main() {
	http.HandleFunc("/v1/decide", func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"decision":"allow","rules":[]}`)
	})
	http.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	http.ListenAndServe("127.0.0.1:18183", nil)
}
GO
(cd "$W/hello" && go mod init hello >/dev/null 2>&1 && go build -o "$W/hello-server" .)

cp -r examples/dev-team "$W/repo"
(cd "$W/repo" && "$W/charter" build --out dist >/dev/null 2>&1)

cat > "$W/policy.rego" <<'REGO'
package charter.tools

import rego.v1

allowed := {"mark_complete", "mark_failed", "run_bash", "create_file", "delete_file", "list_files", "read_file"}

deny contains msg if {
	input.agent == "marco"
	not allowed[input.tool]
	msg := sprintf("marco may not call %s", [input.tool])
}

deny contains msg if {
	input.tool == "run_bash"
	regex.match(`(^|[;&| ])sudo( |$)`, input.input.command)
	msg := "sudo is not allowed here"
}

decision := {"decision": "deny", "rules": deny} if count(deny) > 0

decision := {"decision": "allow", "rules": set()} if count(deny) == 0
REGO

# Targets: each session asks three calls (allowed, the denied tool, the
# condition), in vegeta's JSON format.
python3 - "$W" "$SESSIONS" <<'PY'
import base64, json, sys
w, n = sys.argv[1], int(sys.argv[2])
calls = [("run_bash", {"command": "python -m pytest -q"}), ("write_file", {"path": "a.py", "content": "x"}),
         ("run_bash", {"command": "sudo python x.py"})]
with open(w + "/charter.jsonl", "w") as c, open(w + "/opa.jsonl", "w") as o, open(w + "/hello.jsonl", "w") as h:
    for s in range(n):
        for tool, inp in calls:
            body = {"agent": "marco", "session": "s%d" % s, "phase": "pre", "tool": tool, "input": inp}
            for f, url, b in ((c, "http://127.0.0.1:18181/v1/decide", body),
                              (h, "http://127.0.0.1:18183/v1/decide", body),
                              (o, "http://127.0.0.1:18182/v1/data/charter/tools/decision", {"input": body})):
                f.write(json.dumps({"method": "POST", "url": url, "header": {"Content-Type": ["application/json"]},
                                    "body": base64.b64encode(json.dumps(b).encode()).decode()}) + "\n")
PY

# Nothing else may hold the ports.
for port in 18181 18182 18183; do ! curl -s -o /dev/null "http://127.0.0.1:$port/" || { echo "port $port is taken" >&2; exit 1; }; done
"$W/charter" serve --bundle "$W/repo/dist" --addr 127.0.0.1:18181 --poll 0 2>"$W/charter.log" &
CHARTER_PID=$!
"$OPA" run --server --addr 127.0.0.1:18182 --log-level error "$W/policy.rego" 2>"$W/opa.log" &
"$W/hello-server" 2>"$W/hello.log" &
for port in 18181 18182 18183; do
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
done
# The answers are right before they are fast.
curl -s http://127.0.0.1:18181/v1/decide -d '{"agent":"marco","session":"chk","phase":"pre","tool":"run_bash","input":{"command":"sudo ls"}}' | grep -q '"decision":"deny"'
curl -s http://127.0.0.1:18182/v1/data/charter/tools/decision -d '{"input":{"agent":"marco","tool":"write_file","input":{}}}' | grep -q '"decision":"deny"'

report() { # name
  "$VEGETA" report -type=json "$W/$1.bin" | python3 -c '
import json, sys
r = json.load(sys.stdin); l = r["latencies"]
print("%-8s rate %.0f/s  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.1f ms  success %.2f %%" % (sys.argv[1], r["rate"], l["50th"]/1e6, l["90th"]/1e6, l["99th"]/1e6, l["max"]/1e6, 100*r["success"]))' "$1"
}
echo "rate $RATE/s for $DUR over $SESSIONS sessions; load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for name in charter opa hello; do
  "$VEGETA" attack -format=json -targets="$W/$name.jsonl" -rate="$RATE" -duration="$DUR" -timeout=5s > "$W/$name.bin"
  report "$name"
done
if [ -r /proc/$CHARTER_PID/status ]; then echo "charter serve after the runs: $(grep VmRSS /proc/$CHARTER_PID/status)"; else echo "charter serve is gone:"; cat "$W/charter.log"; fi
