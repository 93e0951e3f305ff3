package rules

import (
	"sync"

	"cel.dev/cel-go/common/types/ref"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// parsedLine is one command line read by shell.Parse, shared by every
// call that runs the same command line: the gate's constraints and the
// rules read it, none changes it.
type parsedLine struct {
	cmds []shell.Command
	err  error
	size int // parseSize

	once sync.Once
	list ref.Val // the CEL list of cmds, made on first use (err nil)
}

// celList returns the commands as the CEL list call.commands() yields,
// or the parse error as a CEL error. The list is made once and shared
// (CEL only reads it); an error value is made anew each time, since CEL
// labels an error with the expression node it came from.
func (p *parsedLine) celList() ref.Val {
	if p.err != nil {
		return commandList(nil, p.err)
	}
	p.once.Do(func() { p.list = commandList(p.cmds, nil) })
	return p.list
}

// The parse cache keeps the command lines parsed last, so that a
// server judging an agent that runs the same commands again (a test
// run, git status) parses each once. It is bounded: command lines
// longer than maxCachedLine are parsed every time, and so are those
// whose parse is larger than maxCachedParse bytes (a short line can
// parse into far more: a brace expansion makes 256 words of one); it
// holds two generations of at most maxParseGen lines and
// maxParseGenBytes bytes each (the lines read since the last generation
// began, and those of the one before; a line found in the old
// generation moves to the new one). Parsing is a pure function of the
// line (shell.DefaultLimits are fixed), so a cached answer is the
// answer.
const (
	maxCachedLine    = 4 << 10
	maxCachedParse   = 64 << 10
	maxParseGen      = 1024
	maxParseGenBytes = 8 << 20
)

type parseCache struct {
	mu       sync.Mutex
	cur, old map[string]*parsedLine
	curBytes int // what cur holds (parseSize)
}

var parses parseCache

// parseLine returns the commands of a command line, from the cache when
// it holds the line.
func parseLine(src string) *parsedLine {
	if len(src) > maxCachedLine {
		cmds, err := shell.Parse(src)
		return &parsedLine{cmds: cmds, err: err}
	}
	parses.mu.Lock()
	p, ok := parses.cur[src]
	if !ok {
		if p, ok = parses.old[src]; ok {
			parses.keep(src, p)
		}
	}
	parses.mu.Unlock()
	if ok {
		return p
	}
	// Parsed outside the lock: two calls of a new line at once may both
	// parse it, and either answer is the same.
	cmds, err := shell.Parse(src)
	p = &parsedLine{cmds: cmds, err: err, size: parseSize(src, cmds)}
	if p.size > maxCachedParse {
		return p
	}
	parses.mu.Lock()
	if q, ok := parses.cur[src]; ok {
		p = q
	} else {
		parses.keep(src, p)
	}
	parses.mu.Unlock()
	return p
}

// parseSize is about what a parsed line holds in memory, its CEL list
// included: the line, each command's strings and a share for its
// structures.
func parseSize(src string, cmds []shell.Command) int {
	const perCommand, perString = 640, 16
	n := len(src)
	for i := range cmds {
		c := &cmds[i]
		n += perCommand + len(c.Program) + len(c.Path) + len(c.Reason) + len(c.Subcommand) + len(c.Destructive)
		for _, list := range [...][]string{c.Args, c.Flags, c.Operands, c.Via, c.Env, c.Writes} {
			for _, s := range list {
				n += perString + len(s)
			}
		}
		for k, v := range c.Values {
			n += 2*perString + len(k) + len(v)
		}
	}
	return n
}

// keep adds a line to the current generation, starting a new one when
// it is full. The caller holds mu.
func (c *parseCache) keep(src string, p *parsedLine) {
	if c.cur == nil || len(c.cur) >= maxParseGen || c.curBytes+p.size > maxParseGenBytes {
		c.old, c.cur, c.curBytes = c.cur, make(map[string]*parsedLine, 64), 0
	}
	c.cur[src] = p
	c.curBytes += p.size
}
