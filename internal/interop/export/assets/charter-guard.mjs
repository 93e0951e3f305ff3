// charter-guard.mjs: written by charter export --to openai-agents. Do not
// edit; export again.
//
// guardedTool makes an @openai/agents function tool that asks charter
// serve (POST /v1/decide) about every call before it runs: deny -> the tool
// does not run and the model gets the reason (a tool input guardrail's
// rejectContent); ask -> needsApproval interrupts the run for a human;
// the server unreachable, an error or an answer charter did not give ->
// deny (fail closed).
import { tool, defineToolInputGuardrail, ToolGuardrailFunctionOutputFactory } from '@openai/agents';
import { randomUUID } from 'node:crypto';

/** Where the guard asks when neither options.decideURL nor CHARTER_DECIDE_URL says. */
export const DEFAULT_DECIDE_URL = __DECIDE_URL__;

// One session per process unless the run's context names one
// (runner.run(agent, input, { context: { charterSession: 'id' } })).
const processSession = randomUUID();

/**
 * decide asks charter serve about one call and returns its answer:
 * { decision: 'allow'|'deny'|'ask', rules: [{rule, action, message}] }.
 * Anything else is a deny naming what went wrong.
 */
export async function decide(url, request, timeoutMs = 10000) {
  let res;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    return denied(`charter decision server unavailable: ${e?.cause?.message ?? e?.message ?? e}`);
  }
  if (!res.ok) {
    return denied(`charter decision server answered ${res.status}`);
  }
  let body;
  try {
    body = await res.json();
  } catch {
    return denied('charter decision server sent an answer that is not JSON');
  }
  if (!body || !['allow', 'deny', 'ask'].includes(body.decision)) {
    return denied('charter decision server sent no decision');
  }
  return { ...body, rules: Array.isArray(body.rules) ? body.rules : [] };
}

function denied(message) {
  return { decision: 'deny', rules: [{ rule: 'charter-guard', action: 'block', message }] };
}

function reasons(d) {
  const msgs = d.rules.map((r) => r && r.message).filter((m) => typeof m === 'string' && m !== '');
  return msgs.length ? msgs.join('; ') : 'denied by charter';
}

function parse(args) {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/**
 * guardedTool returns spec as a function tool of agent `agent` that runs
 * implementations[spec.name] once charter allows the call. A tool without
 * an implementation is an error here, not a tool that does nothing.
 */
export function guardedTool(agent, spec, implementations, options = {}) {
  const execute = implementations?.[spec.name];
  if (typeof execute !== 'function') {
    throw new Error(`charter: agent ${agent}: no implementation for tool ${spec.name} (pass it in implementations.${spec.name})`);
  }
  const url = options.decideURL ?? process.env.CHARTER_DECIDE_URL ?? DEFAULT_DECIDE_URL;
  // One decision per call, shared by needsApproval and the guardrail.
  const decisions = new Map();
  const ask = async (input, callId, runContext) => {
    if (callId && decisions.has(callId)) return decisions.get(callId);
    const session = runContext?.context?.charterSession ?? processSession;
    // The call under charter's name for the tool: the SDK sends the model
    // a sanitised one.
    const p = decide(url, { agent, session, phase: 'pre', tool: spec.name, input }, options.timeoutMs);
    if (callId) decisions.set(callId, p);
    return p;
  };
  return tool({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    strict: spec.strict,
    execute,
    needsApproval: async (runContext, input, callId) => (await ask(input, callId, runContext)).decision === 'ask',
    inputGuardrails: [
      defineToolInputGuardrail({
        name: 'charter',
        run: async ({ context, toolCall }) => {
          const d = await ask(parse(toolCall.arguments), toolCall.callId, context);
          // ask reaches here only once a human approved the call.
          if (d.decision === 'deny') {
            return ToolGuardrailFunctionOutputFactory.rejectContent(`charter: deny: ${reasons(d)}`, d);
          }
          return ToolGuardrailFunctionOutputFactory.allow(d);
        },
      }),
    ],
  });
}
