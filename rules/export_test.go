package rules

import (
	"cel.dev/cel-go/cel"
)

// CostBound compiles a condition as Compile does for a profile of
// families tool families, and says whether it runs without the cost
// tracker and CEL's bound of its cost.
func CostBound(src string, families int) (bounded bool, max uint64, err error) {
	env, err := celEnv()
	if err != nil {
		return false, 0, err
	}
	a, iss := env.Compile(src)
	if iss != nil && iss.Err() != nil {
		return false, 0, iss.Err()
	}
	est, err := env.EstimateCost(a, sizeHints{families: uint64(families)})
	return boundedCost(env, a, families), est.Max, err
}

// TrackedCost evaluates a condition with the cost tracker (and no limit)
// on a call in phase Pre against e's families and s, and returns what
// the tracker charged.
func TrackedCost(e *Engine, src string, c Call, s *Session) (uint64, error) {
	env, err := celEnv()
	if err != nil {
		return 0, err
	}
	a, iss := env.Compile(src)
	if iss != nil && iss.Err() != nil {
		return 0, iss.Err()
	}
	prg, err := env.Program(a, cel.EvalOptions(cel.OptOptimize), cel.CostTracking(resultSizeCost{}), cel.CustomDecoratorV2(guardAllocations))
	if err != nil {
		return 0, err
	}
	args, _ := boundArgsOver(c.Args, MaxStringBytes)
	ev := &evaluation{e: e, s: s, tool: c.Tool, args: args, rawResult: c.Result, cmds: newCommandCache(args)}
	_, det, err := prg.Eval(ev.activation())
	if det == nil || det.ActualCost() == nil {
		return 0, err
	}
	return *det.ActualCost(), nil
}
