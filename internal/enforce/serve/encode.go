package serve

import (
	"strconv"

	"github.com/charter-dev/charter/internal/canonjson"
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

// appendString appends s as a JSON string as encoding/json writes it
// without HTML escaping.
func appendString(b []byte, s string) []byte { return canonjson.AppendEncodingJSON(b, s) }
