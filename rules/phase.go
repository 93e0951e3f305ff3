package rules

// Phase says when a runtime asks the engine about a call.
type Phase string

// The two phases of a call.
const (
	// Pre is before the call runs: rules whose action is block or warn
	// apply. The runtime does not run a call whose verdict is block.
	Pre Phase = "pre"
	// Post is after the call ran, with its result: rules whose action is
	// remind apply.
	Post Phase = "post"
)
