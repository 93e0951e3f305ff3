package render_test

import (
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
	"github.com/charter-dev/charter/render"
)

const repo = `package charter
categories: style: {
	title: "STYLE"
	settings: quote: {
		line:    "- Write {{text}} literally, then: {text}"
		default: "braces"
		options: braces: text: "use {curly} braces"
	}
}
agentTypes: t: {name: "T", system_prompt: "I am {agent.name}."}
agents: a: {name: "Ann", type: "t"}
`

// TestSettingLine checks that a line's escaped braces stay literal and that
// braces in an option's text never become a placeholder.
func TestSettingLine(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": repo}))
	p, err := render.Render(prog, prog.Agents[0])
	if err != nil {
		t.Fatal(err)
	}
	prompt := p.String()
	const wantTemplate = "- Write {{text}} literally, then: use {{curly}} braces"
	if !strings.Contains(prompt, wantTemplate) {
		t.Errorf("prompt.md lacks %q:\n%s", wantTemplate, prompt)
	}
	final, err := render.Fill(prog.Agents[0], prompt, nil)
	if err != nil {
		t.Fatal(err)
	}
	const wantFinal = "- Write {text} literally, then: use {curly} braces"
	if !strings.Contains(final, wantFinal) {
		t.Errorf("rendered prompt lacks %q:\n%s", wantFinal, final)
	}
}

func TestBadSettingLine(t *testing.T) {
	src := strings.Replace(repo, `line:    "- Write {{text}} literally, then: {text}"`, `line:    "- Broken {text"`, 1)
	ds := testrepo.Diagnostics(t, testrepo.FS(map[string]string{"a.cue": src}))
	if len(ds) != 1 || ds[0].Rule != "placeholder" || ds[0].Line != 5 || !strings.Contains(ds[0].Message, "unterminated placeholder") {
		t.Fatalf("diagnostics = %v, want one unterminated placeholder at a.cue:5", ds)
	}
}
