// Writes charter's JSON diagnostics (charter lint --format json) as
// GitHub's own Actions toolkit, @actions/core, writes the same annotations,
// for the tests to compare with charter lint --format github.
//
//   node annotate.mjs DIAGNOSTICS.json [PREFIX]
//
// PREFIX is joined in front of every file (the config root relative to the
// repository root). Control characters are first made visible the way
// docs/ci.md documents (\xNN, \uNNNN; line breaks kept), since the toolkit
// passes them through as they are.
import * as core from '@actions/core';
import { readFileSync } from 'node:fs';

const [file, prefix = ''] = process.argv.slice(2);
const hex = (c, n) => c.codePointAt(0).toString(16).padStart(n, '0');
const visible = (s) =>
  s
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (c) => '\\x' + hex(c, 2))
    .replace(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => '\\u' + hex(c, 4));
const annotate = { error: core.error, warning: core.warning, info: core.notice };

for (const d of JSON.parse(readFileSync(file, 'utf8'))) {
  const props = {};
  if (d.rule) props.title = visible(`[${d.rule}]`);
  if (d.file) props.file = visible(prefix && prefix !== '.' ? `${prefix}/${d.file}` : d.file);
  if (d.line > 0) {
    props.startLine = d.line;
    if (d.column > 0) props.startColumn = d.column;
  }
  annotate[d.severity](visible(d.message), props);
}
