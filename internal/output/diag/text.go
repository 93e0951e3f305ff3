package diag

import (
	"bufio"
	"io"
)

// TextOptions controls WriteText.
type TextOptions struct {
	// Color wraps the severity word in ANSI colour codes, for a terminal.
	// When false the output holds no escape sequences at all.
	Color bool
}

// ANSI SGR sequences for the severity word.
const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiCyan   = "\x1b[1;36m"
)

// WriteText writes one line per diagnostic, in the order given, each exactly
// as Diagnostic.String formats it:
//
//	path/file.cue:12:20: error: [rule-id] message
//
// With opts.Color the severity word is coloured and nothing else changes.
// WriteText writes no summary: the command line prints that on stderr.
func WriteText(w io.Writer, ds []Diagnostic, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	for _, d := range ds {
		if opts.Color {
			writeColored(bw, d)
		} else {
			bw.WriteString(d.String())
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// writeColored writes d.String() with the severity word coloured. It splits
// the plain line rather than formatting it again, so the two can never
// disagree: the part before the severity is what a copy of d without a file
// lacks.
func writeColored(bw *bufio.Writer, d Diagnostic) {
	line := d.String()
	bare := d
	bare.File = ""
	tail := bare.String() // "severity: [rule] message"
	sev := d.Severity.String()
	bw.WriteString(line[:len(line)-len(tail)])
	bw.WriteString(severityColor(d.Severity))
	bw.WriteString(sev)
	bw.WriteString(ansiReset)
	bw.WriteString(tail[len(sev):])
}

func severityColor(s Severity) string {
	switch s {
	case Error:
		return ansiRed
	case Warning:
		return ansiYellow
	default:
		return ansiCyan
	}
}
