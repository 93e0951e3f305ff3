package rules

import (
	"fmt"
	"maps"
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/ext"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// celCommand is one simple command of a shell command line, as CEL sees it
// (charter.Command); see package shell for what each field holds.
type celCommand struct {
	Program     string            `cel:"program"`
	Path        string            `cel:"path"`
	Known       bool              `cel:"known"`
	Reason      string            `cel:"reason"`
	Args        []string          `cel:"args"`
	Subcommand  string            `cel:"subcommand"`
	Flags       []string          `cel:"flags"`
	Values      map[string]string `cel:"values"`
	Operands    []string          `cel:"operands"`
	Via         []string          `cel:"via"`
	Env         []string          `cel:"env"`
	Writes      []string          `cel:"writes"`
	Changes     []string          `cel:"changes"`
	Enters      string            `cel:"enters"`
	MoreArgs    bool              `cel:"more_args"`
	Destructive string            `cel:"destructive"`
}

var commandCELType = cel.ObjectType("charter.Command")

// commandCache holds the commands of one call's command argument, parsed
// once (parseLine) for the gate and every rule that asks.
type commandCache struct {
	src string
	has bool // the call has a string command argument
	p   *parsedLine
}

func newCommandCache(args map[string]any) commandCache {
	s, ok := args["command"].(string)
	return commandCache{src: s, has: ok}
}

// commandless are the arguments Claude Code's tools that run commands
// take besides the command, and those that carry none (TaskStop's ids,
// a Monitor of a WebSocket).
var commandless = []string{"description", "timeout", "timeout_ms", "run_in_background", "dangerouslyDisableSandbox", "task_id", "shell_id", "ws", "persistent"}

// commandCache returns the call's command cache. A call of a tool that
// runs commands (run_bash, a runtime's name for it, the bash family)
// whose command is not a string argument named command, while it has an
// argument that could carry one (an MCP tool's cmd or script), holds a
// command charter cannot read: the whitelist blocks it and a block or
// ask rule that reads its commands denies it.
func (e *Engine) commandCache(tool string, args map[string]any) commandCache {
	c := newCommandCache(args)
	if c.has || !e.runsCommands(tool) {
		return c
	}
	var err error
	if _, ok := args["command"]; ok {
		err = fmt.Errorf("its command argument is not a string")
	} else {
		for _, k := range slices.Sorted(maps.Keys(args)) {
			if !slices.Contains(commandless, k) {
				err = fmt.Errorf("it runs commands but has no command argument, and charter cannot tell what its %s runs; a tool mapped to run_bash must take its command line as command", k)
				break
			}
		}
	}
	if err != nil {
		c.has, c.p = true, &parsedLine{err: err}
	}
	return c
}

// runsCommands reports whether the tool runs shell commands: run_bash, a
// runtime's name the gate maps to it, or a tool of the bash family.
func (e *Engine) runsCommands(tool string) bool {
	return tool == "run_bash" || e.mapped(tool) == "run_bash" || slices.Contains(e.toolFamilies(tool), "bash")
}

func (c *commandCache) parsed() *parsedLine {
	if c.p == nil {
		c.p = parseLine(c.src)
	}
	return c.p
}

func (c *commandCache) commands() ([]shell.Command, error) {
	if !c.has {
		return nil, nil
	}
	p := c.parsed()
	return p.cmds, p.err
}

// celList is call.commands(): an empty list when the call has no string
// command argument.
func (c *commandCache) celList() ref.Val {
	if !c.has {
		return commandList(nil, nil)
	}
	return c.parsed().celList()
}

// shellFunctions are the CEL functions over shell commands.
func shellFunctions() []cel.EnvOption {
	return []cel.EnvOption{
		ext.NativeTypes(types.NativeTypeFor[celCommand](types.NativeTypeAlias("charter.Command"), types.ParseStructTags(true))),
		cel.Function("commands",
			cel.Overload("charter_commands_string", []*cel.Type{cel.StringType}, cel.ListType(commandCELType),
				cel.UnaryBinding(func(s ref.Val) ref.Val {
					return parseLine(string(s.(types.String))).celList()
				})),
			cel.MemberOverload("charter_call_commands", []*cel.Type{callCELType}, cel.ListType(commandCELType),
				cel.UnaryBinding(func(v ref.Val) ref.Val {
					c, ok := v.Value().(*celCall)
					if !ok || c.cmds == nil {
						return commandList(nil, nil)
					}
					return c.cmds.celList()
				}))),
		cel.Function("destructiveSQL",
			cel.Overload("charter_destructive_sql_string", []*cel.Type{cel.StringType}, cel.StringType,
				cel.UnaryBinding(func(s ref.Val) ref.Val {
					// Cut, so that its cost is what boundedCost
					// says (it is a few words).
					return types.String(cutString(shell.DestructiveSQL(string(s.(types.String))), maxSQLVerdict))
				}))),
	}
}

// commandList is the CEL list of cmds, or err as a CEL error: a command
// that cannot be read is an error, and a rule that could block on it
// denies the call.
func commandList(cmds []shell.Command, err error) ref.Val {
	if err != nil {
		return types.NewErr("cannot read the command: %v", err)
	}
	out := make([]*celCommand, len(cmds))
	for i, c := range cmds {
		out[i] = &celCommand{Program: c.Program, Path: c.Path, Known: c.Known, Reason: c.Reason, Args: nonNil(c.Args), Subcommand: c.Subcommand,
			Flags: nonNil(c.Flags), Values: c.Values, Operands: nonNil(c.Operands), Via: nonNil(c.Via), Env: nonNil(c.Env), Writes: nonNil(c.Writes),
			Changes: nonNil(c.Changes), Enters: c.Enters, MoreArgs: c.MoreArgs, Destructive: c.Destructive}
		if out[i].Values == nil {
			out[i].Values = map[string]string{}
		}
	}
	return celAdapter.NativeToValue(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
