package history

import (
	"strings"
)

// Trailer is one "Key: value" line of a commit message's trailer block,
// such as "Reviewed-by: Ada <ada@example.com>".
type Trailer struct {
	Key   string
	Value string
}

// ParseTrailers returns the trailers of a commit message, in order, the way
// git interpret-trailers --parse reads them: the last paragraph, if it is
// not the title, when every line in it is a trailer (or a continuation line
// that starts with white space), or when it holds a line git itself writes
// (Signed-off-by:, "(cherry picked from commit") and at least a quarter of
// its lines are trailers. A key is letters, digits and dashes; continuation
// lines are joined to the value with one space.
func ParseTrailers(msg string) []Trailer {
	lines := strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	// The title is the first paragraph: it holds no trailers.
	title := 0
	for title < len(lines) && strings.TrimSpace(lines[title]) == "" {
		title++
	}
	for title < len(lines) && strings.TrimSpace(lines[title]) != "" {
		title++
	}
	start := len(lines)
	for start > title && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	if start == len(lines) || start <= title {
		return nil
	}
	block := lines[start:]

	trailerLines, other := 0, 0
	recognized, prevTrailer := false, false
	for _, l := range block {
		if (l[0] == ' ' || l[0] == '\t') && prevTrailer {
			continue // a continuation line
		}
		_, _, ok := splitTrailer(l)
		cherry := strings.HasPrefix(l, "(cherry picked from commit ")
		if cherry || strings.HasPrefix(l, "Signed-off-by: ") {
			recognized = true
		}
		prevTrailer = ok || cherry
		if prevTrailer {
			trailerLines++
		} else {
			other++
		}
	}
	if trailerLines == 0 || (other > 0 && !(recognized && trailerLines*3 >= other)) {
		return nil
	}

	var out []Trailer
	last := -1
	for _, l := range block {
		if (l[0] == ' ' || l[0] == '\t') && last >= 0 {
			if v := strings.TrimSpace(l); v != "" {
				out[last].Value = strings.TrimSpace(out[last].Value + " " + v)
			}
			continue
		}
		k, v, ok := splitTrailer(l)
		if !ok {
			last = -1
			continue
		}
		out = append(out, Trailer{Key: k, Value: v})
		last = len(out) - 1
	}
	return out
}

// splitTrailer splits "Key: value". As in git, the key is letters, digits
// and dashes, optionally followed by white space before the colon.
func splitTrailer(line string) (key, value string, ok bool) {
	i := 0
	for i < len(line) && (isAlnum(line[i]) || line[i] == '-') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	key = line[:i]
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] != ':' {
		return "", "", false
	}
	return key, strings.TrimSpace(line[i+1:]), true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// values returns the values of the trailers whose key is key, compared
// without regard to case, as git does.
func values(ts []Trailer, key string) []string {
	var out []string
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			out = append(out, t.Value)
		}
	}
	return out
}
