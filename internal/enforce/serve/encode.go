package serve

import (
	"strconv"
	"unicode/utf8"
)

// appendDecide appends r as JSON and a newline: the bytes encoding/json's
// Encoder writes with SetEscapeHTML(false) (FuzzAppendDecide holds it
// to that), without its reflection. Every answer of /v1/decide is one.
func appendDecide(b []byte, r *DecideResponse) []byte {
	b = append(b, `{"decision":`...)
	b = appendString(b, r.Decision)
	b = append(b, `,"rules":`...)
	if r.Rules == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, x := range r.Rules {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"rule":`...)
			b = appendString(b, x.Rule)
			b = append(b, `,"action":`...)
			b = appendString(b, x.Action)
			b = append(b, `,"message":`...)
			b = appendString(b, x.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendStrings(b, `,"warnings":`, r.Warnings)
	b = appendStrings(b, `,"reminders":`, r.Reminders)
	if len(r.Errors) > 0 {
		b = append(b, `,"errors":[`...)
		for i, x := range r.Errors {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"rule":`...)
			b = appendString(b, x.Rule)
			b = append(b, `,"error":`...)
			b = appendString(b, x.Error)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendStrings(b, `,"notes":`, r.Notes)
	b = append(b, `,"agent":{"id":`...)
	b = appendString(b, r.Agent.ID)
	if r.Agent.Version != 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendInt(b, int64(r.Agent.Version), 10)
	}
	if r.Agent.ContentHash != "" {
		b = append(b, `,"content_hash":`...)
		b = appendString(b, r.Agent.ContentHash)
	}
	b = append(b, `},"bundle":{`...)
	comma := false
	if r.Bundle.Revision != "" {
		b = append(b, `"revision":`...)
		b = appendString(b, r.Bundle.Revision)
		comma = true
	}
	if r.Bundle.Digest != "" {
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"digest":`...)
		b = appendString(b, r.Bundle.Digest)
	}
	b = append(b, `},"decision_id":`...)
	b = appendString(b, r.DecisionID)
	return append(b, "}\n"...)
}

// appendStrings appends an omitempty list of strings under key (which
// starts with its comma).
func appendStrings(b []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, key...)
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json does without
// HTML escaping: quotes, backslashes and control characters escaped,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped (JavaScript reads
// them as line ends).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
