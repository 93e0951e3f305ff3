package lint

import (
	"testing"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// TestBuiltinInstructionsNameNoTool: no built-in behavior's own
// instructions name one of its tools; each tool's guidance is the tool's
// own instructions, which leave the prompt with the tool. So denying a
// tool a built-in behavior brings narrows, and never makes
// instruction-names-denied-tool report a text the repository cannot
// change.
func TestBuiltinInstructionsNameNoTool(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": "package charter\n"}))
	n := 0
	for name, bt := range prog.Config.BehaviorTypes {
		if !prog.Config.Builtin["behaviorTypes."+name] {
			continue
		}
		n++
		for tool := range bt.Tools {
			if mentions(bt.Instructions, tool) {
				t.Errorf("behaviorTypes.%s.instructions names its tool %s: move the sentence into behaviorTypes.%s.tools.%s.instructions", name, tool, name, tool)
			}
		}
	}
	if n < 12 {
		t.Errorf("only %d built-in behavior types", n)
	}
}
