# charter_guard.py: written by charter export --to adk. Do not edit; export
# again.
#
# before_tool is the agent's before_tool_callbacks entry: it asks charter
# serve (POST /v1/decide) about every call before it runs. allow -> None,
# the tool runs; deny -> a dict ADK returns as the tool's result instead
# of running it; ask -> denied too (this export cannot ask a human); the
# server unreachable, an error or a tool charter does not know -> denied
# (fail closed).
import json
import os
import urllib.request
import uuid

AGENT = __AGENT__
DEFAULT_DECIDE_URL = __DECIDE_URL__
# ADK's names for the agent's tools -> charter's tools.
TOOLS = __TOOLS__

_SESSION = str(uuid.uuid4())


def _denied(message):
    return {"error": "charter: deny: " + message}


def decide(request, url=None, timeout=10):
    """Asks charter serve; returns its answer, or a deny saying what failed."""
    url = url or os.environ.get("CHARTER_DECIDE_URL") or DEFAULT_DECIDE_URL
    data = json.dumps(request).encode("utf-8")
    req = urllib.request.Request(url, data=data, headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            body = json.loads(res.read().decode("utf-8"))
    except Exception as e:  # unreachable, an HTTP error, not JSON: deny
        return {"decision": "deny", "rules": [{"rule": "charter-guard", "action": "block", "message": "charter decision server unavailable: %s" % e}]}
    if not isinstance(body, dict) or body.get("decision") not in ("allow", "deny", "ask"):
        return {"decision": "deny", "rules": [{"rule": "charter-guard", "action": "block", "message": "charter decision server sent no decision"}]}
    return body


def before_tool(tool, args, tool_context):
    name = getattr(tool, "name", "")
    charter_tool = TOOLS.get(name)
    if charter_tool is None:
        return _denied("%s is not one of %s's tools" % (name, AGENT))
    session = getattr(getattr(tool_context, "session", None), "id", None) or _SESSION
    d = decide({"agent": AGENT, "session": session, "phase": "pre", "tool": charter_tool, "input": args})
    if d["decision"] == "allow":
        return None
    msgs = [r.get("message") for r in d.get("rules") or [] if isinstance(r, dict) and r.get("message")]
    reason = "; ".join(msgs) or "denied by charter"
    if d["decision"] == "ask":
        return _denied("this call needs a human's approval, which the ADK export cannot ask for: " + reason)
    return _denied(reason)
