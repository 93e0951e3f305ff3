package diag

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// WriteGitHub writes ds, in the order given, as GitHub Actions workflow
// commands, one a line, which the runner turns into annotations:
//
//	::error title=[rule-id],file=agents/a.cue,line=12,col=20::message
//
// Warnings become ::warning and infos ::notice. The properties come in the
// order GitHub's own toolkit (@actions/core) writes them, and one is left
// out when the diagnostic has no value for it (no rule, no file, no line,
// no column). Control characters are first made visible (Escape, keeping
// CR and LF); then values are escaped as the runner unescapes them
// (actions/runner ActionCommand.cs, @actions/core escapeData and
// escapeProperty): in the message %, CR and LF become %25, %0D and %0A; in
// properties : and , also become %3A and %2C. So a message never spans two
// lines and a file name cannot forge another property. Files are as ds
// holds them: GitHub resolves them from the repository root (Rebase). A
// file name that holds a character Escape would change (other than CR and
// LF, which the runner unescapes) is no property, since the name GitHub
// read would be of no file: the message starts with it, escaped, and the
// place.
func WriteGitHub(w io.Writer, ds []Diagnostic) error {
	bw := bufio.NewWriter(w)
	for _, d := range ds {
		bw.WriteString(githubCommand(d))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// githubCommand formats one diagnostic as a workflow command, without the
// trailing newline.
func githubCommand(d Diagnostic) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(githubLevel(d.Severity))
	sep := " "
	prop := func(key, value string) {
		b.WriteString(sep)
		b.WriteString(key)
		b.WriteByte('=')
		b.WriteString(escapeGitHubProperty(Escape(value, "\r\n")))
		sep = ","
	}
	if d.Rule != "" {
		prop("title", "["+d.Rule+"]")
	}
	msg := d.Message
	if Escape(d.File, "\r\n") != d.File {
		// A name GitHub would be given escaped names no file: the
		// message says where, escaped, and the annotation has no file.
		msg = d.File
		if d.Line > 0 {
			msg += ":" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column)
		}
		msg += ": " + d.Message
	} else {
		if d.File != "" {
			prop("file", d.File)
		}
		if d.Line > 0 {
			prop("line", strconv.Itoa(d.Line))
			if d.Column > 0 {
				prop("col", strconv.Itoa(d.Column))
			}
		}
	}
	b.WriteString("::")
	b.WriteString(escapeGitHubData(Escape(msg, "\r\n")))
	return b.String()
}

// githubLevel names the workflow command for a severity.
func githubLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "notice"
	}
}

// githubData escapes a workflow command's message. A Replacer makes one
// pass, so the % of an escape it writes is never escaped again.
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// githubProperty escapes a workflow command's property value.
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func escapeGitHubData(s string) string     { return githubData.Replace(s) }
func escapeGitHubProperty(s string) string { return githubProperty.Replace(s) }
