package gen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Extra gives a generated repository declarations that one agent's edit
// can make used or unused (lint.Global's rules): a preset, an agent type
// and an option no generated agent uses.
const Extra = `package charter

presets: rare: behavior: communication: verbosity: "detailed"

agentTypes: solo: {
	name:          "Solo"
	description:   "Works alone."
	system_prompt: "You are {agent.name}, {agent.role}."
}

categories: communication: settings: verbosity: options: chatty: text: "Say everything twice."
`

// WriteExtra writes Extra as extra.cue into the repository at root of n
// agents (Write's), and makes its last agent, which random edits leave
// alone, use the preset and the option: whether an edit makes them unused
// then depends on that agent too.
func WriteExtra(root string, n int) error {
	if err := os.WriteFile(filepath.Join(root, "extra.cue"), []byte(Extra), 0o644); err != nil {
		return err
	}
	outside := filepath.Join(root, "agents", fmt.Sprintf("a%04d.cue", n-1))
	b, err := os.ReadFile(outside)
	if err != nil {
		return err
	}
	src := string(b)
	if strings.Contains(src, "presets: [") {
		src = strings.Replace(src, "presets: [", "presets: [\"rare\", ", 1)
	} else {
		src = strings.Replace(src, "\tbehaviors: [", "\tpresets: [\"rare\"]\n\tbehaviors: [", 1)
	}
	src = regexp.MustCompile(`verbosity: "[a-z]+"`).ReplaceAllString(src, `verbosity: "chatty"`)
	return os.WriteFile(outside, []byte(src), 0o644)
}

// Mutators are random edits of a generated agent's file, drawing from r,
// for a repository of n agents: budgets, managers, delegates,
// personalities, the type and preset of Extra, its option, an ignore
// comment, reporting and delegation cycles of three. The mutators from
// index breaking on make errors that stop lint everywhere (an unknown
// option, a renamed agent, another file's agent, a syntax error).
func Mutators(r *rand.Rand, n int) (mutators []func(string) string, breaking int) {
	id := func() string { return fmt.Sprintf("a%04d", r.IntN(n)) }
	own := func(src string) int {
		if m := regexp.MustCompile(`agents: a(\d+)`).FindStringSubmatch(src); m != nil {
			k, _ := strconv.Atoi(m[1])
			return k
		}
		return 0
	}
	sub := func(src, re string, repl func(m string) string) string {
		return regexp.MustCompile(re).ReplaceAllStringFunc(src, repl)
	}
	mutators = []func(string) string{
		func(s string) string {
			return sub(s, `budget_limit: \d+`, func(string) string { return fmt.Sprintf("budget_limit: %d", r.IntN(120)) })
		},
		func(s string) string {
			return sub(s, `reports_to: "[^"]*"`, func(string) string { return fmt.Sprintf("reports_to: %q", id()) })
		},
		func(s string) string {
			return sub(s, `can_delegate_to: \[[^\]]*\]`, func(string) string { return fmt.Sprintf("can_delegate_to: [%q, %q]", id(), id()) })
		},
		func(s string) string {
			return sub(s, `(openness|agreeableness|conscientiousness): [0-9.]+`, func(m string) string {
				k, _, _ := strings.Cut(m, ":")
				return fmt.Sprintf("%s: %.2f", k, r.Float64())
			})
		},
		func(s string) string {
			return sub(s, `\n\ttype: +"[a-z]+"`, func(string) string { return "\n\ttype: \"solo\"" })
		},
		func(s string) string {
			return strings.Replace(s, "\tbehaviors: [", "\tpresets: [\"rare\"]\n\tbehaviors: [", 1)
		},
		func(s string) string {
			return sub(s, `verbosity: "[a-z]+"`, func(string) string { return `verbosity: "chatty"` })
		},
		func(s string) string {
			return strings.Replace(s, "\t\tbudget_limit:", "\t\t// charter:ignore budget-exceeds-manager TODO: the test says why\n\t\tbudget_limit:", 1)
		},
		func(s string) string { // a reporting cycle of three: report to a grandchild
			k := own(s)
			return sub(s, `reports_to: "[^"]*"`, func(string) string { return fmt.Sprintf("reports_to: \"a%04d\"", (16*k+5)%n) })
		},
		func(s string) string { // a delegation cycle of three: delegate to the grandparent
			k := own(s)
			return sub(s, `can_delegate_to: \[`, func(m string) string { return fmt.Sprintf("%s\"a%04d\", ", m, max(0, ((k-1)/4-1)/4)) })
		},
		// Breaking ones last.
		func(s string) string { return strings.Replace(s, `verbosity: "`, `verbosity: "x`, 1) },
		func(s string) string { // rename the agent: who reports to it breaks
			return sub(s, `agents: a\d+`, func(m string) string { return m + "x" })
		},
		func(s string) string { // the same agent in another file's place
			return sub(s, `agents: a\d+`, func(string) string { return "agents: " + id() })
		},
		func(s string) string { return strings.TrimSuffix(strings.TrimRight(s, "\n"), "}") }, // syntax error
	}
	return mutators, len(mutators) - 4
}

// Files reads and writes a generated repository's files for a test, by
// slash-separated path under Root, failing T on any error.
type Files struct {
	T    testing.TB
	Root string
}

// Write writes src as file rel, making its folder.
func (f Files) Write(rel, src string) {
	f.T.Helper()
	p := filepath.Join(f.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.T.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		f.T.Fatal(err)
	}
}

// Read returns file rel.
func (f Files) Read(rel string) string {
	f.T.Helper()
	b, err := os.ReadFile(filepath.Join(f.Root, filepath.FromSlash(rel)))
	if err != nil {
		f.T.Fatal(err)
	}
	return string(b)
}
