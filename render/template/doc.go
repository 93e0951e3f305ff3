// Package template implements charter's prompt template language: plain text
// with {name} placeholders, and nothing else.
//
// # Syntax
//
//	{name}   a placeholder
//	{{       a literal {
//	}}       a literal }
//
// A name is one or more parts joined by dots, each part an ASCII letter or
// underscore followed by ASCII letters, digits and underscores:
// [A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*. No spaces are allowed
// inside the braces. Every other byte, including any UTF-8 text, is literal
// and copied unchanged; bytes are never normalized, so "\r\n" stays "\r\n".
//
// There is no template logic: no conditionals, loops, function calls, filters,
// includes or whitespace trimming. Executing a template cannot run code, read
// files or look anything up except through the caller's [Lookup]. What a name
// means is the caller's choice; charter uses dotted names ({agent.name}) for
// values known when the bundle is compiled and plain names ({user_name}) for
// variables the agent runtime fills in.
//
// # Errors and positions
//
// [Parse] reports every error in the text, not just the first, as an
// [ErrorList] sorted by position: a placeholder with no "}" before the end of
// its line or of the text, an empty "{}", a name that breaks the rule above,
// and a "}" that is neither doubled nor closing a placeholder. A placeholder
// never spans lines. Each error says how to fix it.
//
// A [Pos] is a 0-based byte offset and a 1-based line and column within the
// template text. Columns count bytes, not runes, as in Go and CUE positions.
// Lines end at "\n"; in "\r\n" the "\r" is the last byte of its line, and a
// lone "\r" does not end a line. Errors point at the "{" that starts the bad
// placeholder, or at the stray "}".
//
// # Execution
//
// A parsed [Template] is immutable and safe for concurrent use. It is used in
// one of two ways:
//
//   - [Template.Execute] renders the final text: every placeholder is replaced
//     by its value, "{{" and "}}" become "{" and "}", and a placeholder the
//     lookup does not know is an error. The result is plain text, not a
//     template.
//   - [Template.Substitute] replaces only the placeholders the lookup knows and
//     keeps the others as {name}. Its result is again a template: literal
//     braces stay escaped and braces inside substituted values are escaped,
//     so [Template.String] gives source text that parses back to the same
//     template and that a later Execute renders exactly as a single Execute
//     with both sets of values would.
//
// # Values are never parsed
//
// A substituted value is data, never template text. A value containing
// "{other}" does not cause other to be substituted, in Execute or in any later
// execution of a Substitute result: Execute copies values verbatim, and
// Substitute escapes their braces (see [Escape]). No value can reach into
// another placeholder.
package template
