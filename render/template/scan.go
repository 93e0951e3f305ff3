package template

import "strings"

// Scan returns the names of the well-formed placeholders in text, in
// order, for text that need not be a valid template (free text that is
// copied literally, where a stray brace is no error): "{{" is skipped, and
// a brace pair around anything but a name is ignored.
func Scan(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		if i+1 < len(text) && text[i+1] == '{' {
			i++
			continue
		}
		end := strings.IndexByte(text[i:], '}')
		if end < 0 {
			break
		}
		if name := text[i+1 : i+end]; IsName(name) {
			out = append(out, name)
		}
		i += end
	}
	return out
}
