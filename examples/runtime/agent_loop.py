#!/usr/bin/env python3
"""A Jetbox-style agent loop that asks charter serve before every tool call.

Standard library only. The "model" here is a scripted plan (what an LLM
would propose, one tool call per turn); the loop is what a runtime does
around it:

    for each proposed call:
        POST /v1/decide  phase "pre"   -> allow | ask | deny
        deny:  do not run it; tell the model why
        ask:   run it only if the user approves (--approve says yes)
        run the tool
        POST /v1/decide  phase "post"  -> reminders for the model;
                                          the server records the call

The loop fails closed: if charter cannot be reached or answers anything
but a decision, the call does not run.

    charter serve --bundle dist &
    python3 examples/runtime/agent_loop.py --agent marco --workdir /tmp/ws
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import uuid

PLAN = [
    ("list_files", {"path": "."}),
    ("create_file", {"path": "calc.py", "content": "def add(a, b):\n    return a + b\n"}),
    ("read_file", {"path": "calc.py"}),
    ("create_file", {"path": "test_calc.py", "content": "from calc import add\nassert add(2, 3) == 5\nprint('ok')\n"}),
    ("run_bash", {"command": "python test_calc.py"}),
    ("run_bash", {"command": "cat calc.py"}),
    ("run_bash", {"command": "rm -rf build"}),
    ("mark_complete", {"summary": "calc.add written and tested"}),
]


class Charter:
    """A client of charter serve's /v1/decide."""

    def __init__(self, url, agent, session, token=None, timeout=5.0):
        self.url = url.rstrip("/") + "/v1/decide"
        self.agent, self.session, self.token, self.timeout = agent, session, token, timeout

    def decide(self, phase, tool, args, result=None):
        body = {"agent": self.agent, "session": self.session, "phase": phase, "tool": tool, "input": args}
        if phase == "post":
            body["result"] = result
        req = urllib.request.Request(self.url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                answer = json.load(resp)
        except urllib.error.HTTPError as e:
            reason = e.read().decode(errors="replace")
            return {"decision": "deny", "rules": [], "error": f"charter answered {e.code}: {reason}"}
        except (urllib.error.URLError, OSError, ValueError) as e:
            return {"decision": "deny", "rules": [], "error": f"charter cannot be reached: {e}"}
        if answer.get("decision") not in ("allow", "ask", "deny"):
            return {"decision": "deny", "rules": [], "error": f"charter gave no decision: {answer}"}
        return answer


def run_tool(workdir, tool, args):
    """The agent's tools, confined to workdir."""
    def path(p):
        full = os.path.realpath(os.path.join(workdir, p))
        if not full.startswith(os.path.realpath(workdir)):
            raise ValueError(f"{p} is outside the workspace")
        return full
    if tool == "list_files":
        return "\n".join(sorted(os.listdir(path(args.get("path", ".")))))
    if tool == "read_file":
        with open(path(args["path"])) as f:
            return f.read()
    if tool == "create_file":
        with open(path(args["path"]), "w") as f:
            f.write(args["content"])
        return f"wrote {args['path']}"
    if tool == "run_bash":
        p = subprocess.run(args["command"], shell=True, cwd=workdir, capture_output=True, text=True, timeout=60)
        return f"exit {p.returncode}\n{p.stdout}{p.stderr}"
    if tool == "mark_complete":
        return "done"
    raise ValueError(f"no tool {tool}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default=os.environ.get("CHARTER_URL", "http://127.0.0.1:8181"))
    ap.add_argument("--agent", default="marco")
    ap.add_argument("--session", default=None, help="default: a new one")
    ap.add_argument("--workdir", default=None, help="default: a new temporary folder")
    ap.add_argument("--approve", action="store_true", help="approve every call charter asks about")
    a = ap.parse_args()
    workdir = a.workdir or tempfile.mkdtemp(prefix="agent-")
    charter = Charter(a.url, a.agent, a.session or "loop-" + uuid.uuid4().hex[:12], os.environ.get("CHARTER_TOKEN"))
    ran = denied = 0
    for tool, args in PLAN:
        verdict = charter.decide("pre", tool, args)
        why = "; ".join(r["message"] for r in verdict.get("rules", []) if r["action"] in ("block", "ask"))
        why = why or verdict.get("error", "")
        if verdict["decision"] == "deny":
            print(f"{tool} {json.dumps(args)}: denied: {why}")
            denied += 1
            continue
        if verdict["decision"] == "ask":
            if not a.approve:
                print(f"{tool} {json.dumps(args)}: not approved: {why}")
                denied += 1
                continue
            print(f"{tool} {json.dumps(args)}: approved by the user: {why}")
        for w in verdict.get("warnings") or []:
            print(f"  warning: {w}")
        try:
            result = run_tool(workdir, tool, args)
        except Exception as e:  # the tool failed: the model is told
            result = f"error: {e}"
        after = charter.decide("post", tool, args, result)
        print(f"{tool} {json.dumps(args)}: ran ({verdict['decision_id'][:8]}): {result.splitlines()[0] if result else ''}")
        for r in after.get("reminders") or []:
            print(f"  reminder: {r}")
        ran += 1
    print(f"{ran} calls ran, {denied} were not run")


if __name__ == "__main__":
    sys.exit(main())
