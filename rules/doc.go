// Package rules evaluates rule profiles on the tool calls of an LLM agent.
//
// A runtime compiles a profile once (Compile, from the JSON that charter
// build writes to dist/profiles/<name>.json, read with DecodeProfile), keeps
// one Session per agent run, and asks the Engine about every tool call
// twice:
//
//	v := engine.Evaluate(rules.Pre, call, session)   // block and warn rules
//	if v.Decision == rules.Blocked { /* do not run the call */ }
//	// ... run the call, set call.Result ...
//	v = engine.Evaluate(rules.Post, call, session)   // remind rules
//	session.Record(call)
//
// Every rule that applies is evaluated, in rule id order; the decision is
// block when any block rule fired. A blocked call is never recorded. A rule
// that fires stays quiet for its cooldown (counted in recorded calls). A
// condition that fails at run time is reported in Verdict.Errors, never
// passed silently, and the other rules still run.
//
// Conditions are contains, matches and not_in tests on an argument, or CEL
// expressions over the call and the session. The session is not a list in
// CEL: it offers aggregates that Record keeps up to date (counts, last
// indexes, paths seen, cached pattern scans, the last calls), so that every
// rule costs O(1) in the session's length. Inputs are bounded
// (MaxStringBytes, MaxDepth, MaxNodes), so a huge tool input costs bounded
// time and memory.
//
// Store keeps sessions in files for runtimes that judge each call in a new
// process; RunTest plays a recorded session against expectations, for
// charter test. docs/rules.md is the full reference: the compiled profile
// format, the CEL environment, the limits, the saved-session format and the
// Claude Code hook (package claudecode).
//
// The package does not depend on CUE.
package rules
