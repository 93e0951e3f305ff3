package adkconfig

import (
	"strings"
	"testing"
)

// The checker refuses what ADK's loader refuses and takes what it takes.
func TestCheck(t *testing.T) {
	ok := "name: coder\ninstruction: Fix it.\nmodel: gemini-2.5-pro\ntools:\n  - name: google_search\nbefore_tool_callbacks:\n  - name: coder.charter_guard.before_tool\n"
	if err := Check([]byte(ok)); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	for _, c := range []struct{ name, yaml, want string }{
		{"unknown field", ok + "colour: red\n", "additional properties"},
		{"extra key in a tool", strings.Replace(ok, "- name: google_search", "- name: google_search\n    mode: x", 1), "additional properties"},
		{"no instruction", "name: coder\n", "instruction"},
		{"hyphenated name", strings.Replace(ok, "name: coder", "name: co-der", 1), "identifier"},
		{"user", strings.Replace(ok, "name: coder", "name: user", 1), "cannot be `user`"},
		{"callback without a module", strings.Replace(ok, "coder.charter_guard.before_tool", "before_tool", 1), "module.function"},
		{"snake_case generate_content_config", ok + "generate_content_config:\n  max_output_tokens: 5\n", "additional properties"},
	} {
		err := Check([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}
