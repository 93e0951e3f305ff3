package importer

import (
	"fmt"
	"strings"
)

// scopes names the declaration a table's "scope:" target writes.
var scopeNames = map[string]string{"agent": "agents.<id>", "type": "agentTypes.<id>", "profile": "profiles.<id>"}

// Markdown returns the reference of every format's mapping: which source
// key goes to which field, and which are not carried and why. It is part
// of docs/import.md, generated from the tables import uses.
func Markdown() string {
	var b strings.Builder
	for _, f := range Formats {
		fmt.Fprintf(&b, "### %s (`--from %s`)\n\n", f.Title, f.Name)
		fmt.Fprintf(&b, "Taken for it: %s.\n\n", f.Expect)
		b.WriteString("| source key | goes to |\n| --- | --- |\n")
		for _, m := range f.table {
			fmt.Fprintf(&b, "| `%s` | %s |\n", strings.ReplaceAll(m.src, ".[]", "[]"), target(m))
		}
		b.WriteString("\nA key not listed goes, under its own name, where its parent's keys go; at the top it is not carried.\n\n")
	}
	return b.String()
}

func target(m mapping) string {
	switch {
	case m.to == "":
		return "**not carried**: " + m.why
	case m.to == used:
		return m.why
	case m.to == outside:
		return "not written, and not compared: " + m.why
	case m.to == derived:
		return "derived (" + m.why + "): checked against the imported agent"
	case m.to == descend:
		return "its keys, as listed"
	case m.to == ".":
		return "its keys go where its parent's go"
	case strings.HasPrefix(m.to, "."):
		return fmt.Sprintf("`%s`, beside its parent's keys", m.to[1:])
	}
	scope, rel, _ := strings.Cut(m.to, ":")
	s := "`" + scopeNames[scope]
	if rel != "" {
		s += "." + rel
	}
	s += "`"
	if rel == "" {
		s = "its keys go into " + s
	}
	if m.conv != nil {
		s += " (`rule: false` becomes `rule: enabled: false`)"
	}
	return s
}
