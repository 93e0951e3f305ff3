package rules

import (
	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// An expression runs under CEL's cost tracker (costLimit), which costs an
// allocation per function call and two per evaluation: the largest share
// of a decision's allocations. An expression whose cost CEL's estimator
// bounds within costLimit whatever the call, given the limits the engine
// puts on what an expression sees, can never reach the limit, so it runs
// without the tracker: its answer is the same, for less.
//
// The bound is sound when the estimator's model bounds what the tracker
// charges, which is CEL's own contract (the estimator and the tracker
// share one cost model), except for what charter adds to the tracker:
// resultSizeCost charges a call by the size of the string or bytes it
// makes. So an expression with any call that yields a string or bytes
// (concatenation, string(), replace, ...) keeps the tracker, whatever
// its estimate; destructiveSQL is the one exception, its result being
// cut to maxSQLVerdict bytes, under what resultSizeCost charges.
//
// The sizes the estimator is told (sizeHints) are upper bounds the engine
// enforces: a string of the call MaxStringBytes, a list or map MaxNodes
// values (bounder), call.families the profile's families, call.commands()
// shell's MaxCommands. What it is not told is unknown, and an expression
// whose cost depends on it keeps the tracker.

// maxSQLVerdict bounds what destructiveSQL returns.
const maxSQLVerdict = 256

// boundedCost reports whether the checked expression's cost is within
// costLimit for every call, for a profile of families tool families.
func boundedCost(env *cel.Env, a *cel.Ast, families int) bool {
	native := a.NativeRep()
	makesString := false
	celast.PostOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.CallKind {
			return
		}
		switch e.AsCall().FunctionName() {
		case "destructiveSQL",
			// Planned as attributes or branches, not calls: the
			// tracker charges them as selections, never by
			// resultSizeCost.
			operators.Index, operators.OptIndex, operators.OptSelect, operators.Conditional:
			return
		}
		switch native.GetType(e.ID()).Kind() {
		case types.StringKind, types.BytesKind, types.DynKind, types.AnyKind:
			makesString = true
		}
	}))
	if makesString {
		return false
	}
	est, err := env.EstimateCost(a, sizeHints{families: uint64(families)})
	return err == nil && est.Max <= costLimit
}

// sizeHints tells CEL's estimator the limits of what an expression sees.
type sizeHints struct{ families uint64 }

// largest bounds any one value the call holds: a string's bytes, or the
// values of a list or map (MaxNodes is less).
const largest = MaxStringBytes

func (h sizeHints) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	p := n.Path()
	if len(p) == 0 || p[0] != "call" {
		return nil
	}
	if len(p) == 2 && p[1] == "families" {
		return &cost.SizeEstimate{Min: 0, Max: h.families}
	}
	// call.tool, call.path, call.fingerprint, call.args and what it
	// holds, call.result: all within the bounder's limits.
	return &cost.SizeEstimate{Min: 0, Max: largest}
}

func (h sizeHints) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	switch overloadID {
	case "charter_commands_string", "charter_call_commands":
		return &cost.CallEstimate{CostEstimate: cost.FixedCostEstimate(1),
			ResultSize: &cost.SizeEstimate{Min: 0, Max: uint64(shell.DefaultLimits.MaxCommands)}}
	case "charter_destructive_sql_string":
		return &cost.CallEstimate{CostEstimate: cost.FixedCostEstimate(1),
			ResultSize: &cost.SizeEstimate{Min: 0, Max: maxSQLVerdict}}
	}
	return nil
}
