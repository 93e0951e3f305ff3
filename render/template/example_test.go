package template_test

import (
	"fmt"
	"strings"

	"github.com/charter-dev/charter/render/template"
)

// Compile-time values are substituted when the bundle is built; runtime
// variables stay as {name} in prompt.md and are filled in when the agent
// starts.
func Example() {
	tmpl, err := template.Parse("I am {agent.name}. Reply as {{\"ok\": bool}}.\nCurrent user: {user_name}")
	if err != nil {
		fmt.Println(err)
		return
	}

	// Build time: dotted names only. The value's braces are escaped, so the
	// runtime cannot mistake them for a placeholder.
	compiled := tmpl.Substitute(func(name string) (string, bool) {
		if name == "agent.name" {
			return "Sarah {user_name}", true
		}
		return "", false
	})
	fmt.Println(compiled)
	fmt.Println("---")

	// Run time: parse prompt.md and fill in the runtime variables.
	prompt, err := template.Parse(compiled.String())
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := prompt.Execute(template.Map(map[string]string{"user_name": "Ann"}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// I am Sarah {{user_name}}. Reply as {{"ok": bool}}.
	// Current user: {user_name}
	// ---
	// I am Sarah {user_name}. Reply as {"ok": bool}.
	// Current user: Ann
}

func ExampleParse_errors() {
	_, err := template.Parse("Hello {user name}\nTime: {current_time\nJSON: {\"a\": 1}}")
	for _, e := range err.(template.ErrorList) {
		fmt.Printf("%d:%d (offset %d): %s\n", e.Pos.Line, e.Pos.Column, e.Pos.Offset, e.Msg)
	}
	// Output:
	// 1:7 (offset 6): invalid placeholder name "user name": it contains a space; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}; write "{{" and "}}" for literal braces
	// 2:7 (offset 24): unterminated placeholder "{current_time": close it with "}" on the same line; write "{{" and "}}" for literal braces
	// 3:7 (offset 44): invalid placeholder name "\"a\": 1": it contains "\""; a name has only ASCII letters, digits and underscores, with dots between parts, as in {user_name} or {agent.name}; write "{{" and "}}" for literal braces
	// 3:15 (offset 52): unexpected "}": write "}}" for a literal "}"
}

func ExampleTemplate_Placeholders() {
	tmpl, _ := template.Parse("{user_name}, it is {current_time}.\nBye {user_name}.")
	for _, p := range tmpl.Placeholders() {
		kind := "runtime"
		if strings.Contains(p.Name, ".") {
			kind = "compile-time"
		}
		fmt.Println(p.Pos, p.Name, kind)
	}
	// Output:
	// 1:1 user_name runtime
	// 1:20 current_time runtime
	// 2:5 user_name runtime
}

func ExampleEscape() {
	fmt.Println(template.Escape(`Answer with {"ok": true}`))
	// Output: Answer with {{"ok": true}}
}
