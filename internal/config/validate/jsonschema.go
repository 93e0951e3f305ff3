package validate

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charter-dev/charter/internal/jsonschema"
	jskind "github.com/charter-dev/charter/internal/jsonschema/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaProblem is one thing wrong with a JSON Schema: where (labels below
// the schema's own path, list items as [i]) and what.
type schemaProblem struct {
	at  Path
	msg string
}

var jsonTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// JSONSchemaProblems checks doc as a JSON Schema, draft 2020-12: against the
// draft's metaschema, that its references resolve and its patterns
// compile, and, in every object schema, that each name in required is a
// property the schema declares (JSON Schema allows it; for a tool's
// parameters or an agent's output it is always a mistake). It returns a
// message for each problem, prefixed with where it is.
func JSONSchemaProblems(doc map[string]any) []string {
	var out []string
	for _, p := range jsonSchemaProblems(doc) {
		out = append(out, p.at.String()+": "+p.msg)
	}
	return out
}

// checkedSchemas remembers, for this process, the problems of each schema
// by its JSON: the standard library's tool parameters are checked on
// every validation (charter log validates hundreds of commits), and a
// check costs tens of microseconds.
// It holds at most maxCheckedSchemas, so that a long-running process (an
// editor's server) does not grow without bound.
var (
	checkedSchemas    sync.Map
	checkedCount      atomic.Int64
	maxCheckedSchemas int64 = 4096
)

func jsonSchemaProblems(doc map[string]any) []schemaProblem {
	key, err := json.Marshal(doc)
	if err == nil {
		if p, ok := checkedSchemas.Load(string(key)); ok {
			return p.([]schemaProblem)
		}
	}
	probs := compileSchema(doc)
	if err == nil && checkedCount.Add(1) <= maxCheckedSchemas {
		checkedSchemas.Store(string(key), probs)
	}
	return probs
}

func compileSchema(doc map[string]any) []schemaProblem {
	const url = "mem:///schema.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Nothing is fetched: a $ref outside the document is an error.
	c.UseLoader(noLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return []schemaProblem{{nil, err.Error()}}
	}
	_, err := c.Compile(url)
	var probs []schemaProblem
	switch e := err.(type) {
	case nil:
	case *jsonschema.SchemaValidationError:
		if ve, ok := e.Err.(*jsonschema.ValidationError); ok {
			probs = leafProblems(doc, ve)
		} else {
			probs = []schemaProblem{{nil, e.Err.Error()}}
		}
	case *jsonschema.JSONPointerNotFoundError:
		probs = []schemaProblem{{nil, fmt.Sprintf("$ref %s points at nothing in the schema", strings.TrimPrefix(e.URL, url))}}
	default:
		probs = []schemaProblem{{nil, strings.ReplaceAll(err.Error(), url, "the schema")}}
	}
	if len(probs) == 0 {
		requiredProblems(doc, nil, &probs)
	}
	return probs
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema; charter reads no network: inline it under $defs", url)
}

var printer = message.NewPrinter(language.English)

// leafProblems says each failure of the metaschema once, at its place:
// of the alternatives for one place, an enum (such as type's) says the
// most.
func leafProblems(doc any, ve *jsonschema.ValidationError) []schemaProblem {
	byLoc := map[string]*jsonschema.ValidationError{}
	var order []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		key := strings.Join(e.InstanceLocation, "\x00")
		prev, seen := byLoc[key]
		if !seen {
			order = append(order, key)
		}
		if _, enum := e.ErrorKind.(*jskind.Enum); !seen || enum && prev != nil {
			byLoc[key] = e
		}
	}
	walk(ve)
	var out []schemaProblem
	for _, key := range order {
		e := byLoc[key]
		out = append(out, schemaProblem{labels(doc, e.InstanceLocation), leafMessage(e)})
	}
	return out
}

func leafMessage(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *jskind.Enum:
		if s, ok := k.Got.(string); ok && len(e.InstanceLocation) > 0 && e.InstanceLocation[len(e.InstanceLocation)-1] == "type" {
			msg := fmt.Sprintf("%q is not a JSON Schema type; valid types: %s", s, strings.Join(jsonTypes, ", "))
			if c, ok := closest(s, jsonTypes); ok {
				msg += fmt.Sprintf("; did you mean %q?", c)
			}
			return msg
		}
	case *jskind.Type:
		return fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or "))
	}
	return e.ErrorKind.LocalizedString(printer)
}

// labels turns a JSON pointer's tokens into path labels, list items as
// [i].
func labels(doc any, loc []string) Path {
	var p Path
	cur := doc
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return append(p, tok)
			}
			p, cur = append(p, Index(i)), x[i]
		case map[string]any:
			p, cur = append(p, tok), x[tok]
		default:
			return append(p, tok)
		}
	}
	return p
}

// requiredProblems finds, in every subschema with properties and
// required, a required name that is not a property.
func requiredProblems(node any, at Path, out *[]schemaProblem) {
	switch x := node.(type) {
	case []any:
		for i, v := range x {
			requiredProblems(v, at.Child(Index(i)), out)
		}
	case map[string]any:
		props, hasProps := x["properties"].(map[string]any)
		if req, ok := x["required"].([]any); ok && (hasProps || x["type"] == "object") {
			for i, r := range req {
				name, _ := r.(string)
				if _, ok := props[name]; !ok {
					*out = append(*out, schemaProblem{at.Child("required", Index(i)),
						fmt.Sprintf("required property %q is not under properties: declare it there, or remove it from required%s", name, didYouMean(name, names(props), "properties"))})
				}
			}
		}
		keys := names(x)
		for _, k := range keys {
			if k == "enum" || k == "const" || k == "examples" || k == "default" {
				continue // values, not schemas
			}
			requiredProblems(x[k], at.Child(k), out)
		}
	}
}
