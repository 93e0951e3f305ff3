// Package rules evaluates rule profiles on the tool calls of an LLM agent.
//
// A runtime compiles a profile once (Compile, from the JSON that charter
// build writes to dist/profiles/<name>.json, read with DecodeProfile),
// sets the agent's gate (ReadGate, from the bundle's agent.json: the tools
// the agent may call and the limits its behaviors put on their calls),
// keeps one Session per agent run, and asks the Engine about every tool
// call twice:
//
//	v := engine.Evaluate(rules.Pre, call, session)   // the gate, then block, ask and warn rules
//	if v.Decision == rules.Blocked { /* do not run the call */ }
//	if v.Decision == rules.Asked { /* run it only if the user approves */ }
//	// ... run the call, set call.Result ...
//	v = engine.Evaluate(rules.Post, call, session)   // remind rules
//	session.Record(call)
//
// Every rule that applies is evaluated, in rule id order; the decision is
// block when any block rule fired, else ask when an ask rule did. A
// blocked call is never recorded. A rule that fires stays quiet for its
// cooldown (counted in recorded calls; a block rule has none, and an ask
// rule's counts from the approval).
//
// The engine fails closed: a call it cannot judge (arguments past the
// limits MaxStringBytes, MaxDepth and MaxNodes, a block or ask rule whose
// condition fails, a CEL program past its cost limit) is blocked, by the
// pseudo-rule FailClosedRule, with the reason; SetOnError(OnErrorAllow)
// is the operator's choice to judge it on what could be judged instead. A
// warn or remind rule that fails is reported in Verdict.Errors.
//
// Conditions are contains, matches and not_in tests on an argument, or CEL
// expressions over the call, its shell commands (parsed, not grepped:
// call.commands()) and the session. The session is not a list in CEL: it
// offers aggregates that Record keeps up to date (counts, last indexes,
// paths seen, cached pattern scans, the last calls), so that every rule
// costs O(1) in the session's length.
//
// Store keeps sessions in files for runtimes that judge each call in a new
// process, trusting nothing else in its folder; RunTest plays a recorded
// session against expectations, for charter test. docs/rules.md is the
// full reference: the gate, the compiled profile format, the CEL
// environment, the shell parser, the limits, the saved-session format and
// the Claude Code hook (package claudecode).
//
// The package does not depend on CUE; it reads shell commands with
// mvdan.cc/sh.
package rules
