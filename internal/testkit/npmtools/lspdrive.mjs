// lspdrive drives `charter lsp` over stdio with VS Code's own client
// library (vscode-languageserver-protocol), as an author would: it opens a
// few agents' files of a repository, then edits them (budgets, option
// typos that it undoes, personalities, managers), spaced at random, and
// measures the time from each didChange to the first publishDiagnostics
// for that file whose version is the edit's or later. At the end it
// checks that the diagnostics it holds equal those of `charter lint
// --format json` on the same text (the buffers written to disk), and
// prints a JSON report on stdout, with the server's CPU time per edit
// (cpuMsPerEdit, from /proc).
//
//	node lspdrive.mjs --charter BIN --root DIR [--edits 50] [--min 0.2]
//	  [--max 3] [--seed 1] [--files 5] [--rss-every 0] [--no-check]
//
// It exits 1 when an edit got no diagnostics within --timeout seconds
// (60) or the diagnostics differ from charter lint's; the report says why.
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node.js";

const args = { edits: 50, min: 0.2, max: 3, seed: 1, files: 5, timeout: 60, "rss-every": 0, check: true };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === "--no-check") args.check = false;
  else if (a.startsWith("--")) args[a.slice(2)] = process.argv[++i];
}
for (const k of ["edits", "min", "max", "seed", "files", "timeout", "rss-every"]) args[k] = Number(args[k]);
if (!args.charter || !args.root) {
  console.error("usage: node lspdrive.mjs --charter BIN --root DIR [--edits N] [--min S] [--max S] [--seed N] [--files N]");
  process.exit(2);
}

// A small deterministic generator (mulberry32), so a seed repeats a run.
let state = args.seed >>> 0 || 1;
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(rand() * list.length)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const server = spawn(args.charter, ["lsp"], { cwd: args.root, stdio: ["pipe", "pipe", "inherit"] });
const conn = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));

// held: the diagnostics the client shows, by URI; waiters: edits waiting
// for theirs.
const held = new Map();
let waiters = [];
conn.onNotification("textDocument/publishDiagnostics", (p) => {
  held.set(p.uri, p.diagnostics);
  const now = performance.now();
  waiters = waiters.filter((w) => {
    if (w.uri === p.uri && (p.version === undefined || p.version >= w.version)) {
      w.resolve(now);
      return false;
    }
    return true;
  });
});
conn.onNotification("window/showMessage", (p) => process.stderr.write(`server: ${p.message}\n`));
conn.listen();

function published(uri, version, timeout = args.timeout) {
  return new Promise((resolve, reject) => {
    const w = { uri, version, resolve };
    waiters.push(w);
    setTimeout(() => reject(new Error(`no diagnostics for ${uri} version ${version} within ${timeout}s`)), timeout * 1000);
  });
}

// cpu is the server's CPU time so far (user and system) in ms: the cost
// of the edits, which a loaded machine does not inflate as it does the
// wall time.
function cpu() {
  try {
    const f = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

function rss() {
  try {
    const m = readFileSync(`/proc/${server.pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const rootURI = pathToFileURL(args.root).href;
await conn.sendRequest("initialize", { processId: process.pid, rootUri: rootURI, capabilities: {}, workspaceFolders: null });
conn.sendNotification("initialized", {});

// The files: an agent near the top of the reporting tree, and others.
const all = readdirSync(join(args.root, "agents")).filter((f) => f.endsWith(".cue")).sort();
const chosen = [all[1]];
while (chosen.length < Math.min(args.files, all.length)) {
  const f = pick(all);
  if (!chosen.includes(f)) chosen.push(f);
}
const docs = chosen.map((f) => {
  const path = join(args.root, "agents", f);
  const text = readFileSync(path, "utf8");
  return { path, uri: pathToFileURL(path).href, version: 1, texts: [text], text };
});

const t0 = performance.now();
for (const d of docs) {
  const got = published(d.uri, 1, 1800); // the first evaluation reads the whole repository
  conn.sendNotification("textDocument/didOpen", { textDocument: { uri: d.uri, languageId: "cue", version: 1, text: d.text } });
  await got;
}
const firstEvaluation = performance.now() - t0;

const ids = all.map((f) => f.replace(/\.cue$/, ""));
const mutators = [
  ["budget", (s) => s.replace(/budget_limit: \d+/, () => `budget_limit: ${Math.floor(rand() * 120)}`)],
  ["typo", (s) => s.replace(/verbosity: "/, 'verbosity: "x')],
  ["personality", (s) => s.replace(/openness: +[0-9.]+/, () => `openness: ${rand().toFixed(2)}`)],
  ["manager", (s) => s.replace(/reports_to: "[^"]*"/, () => `reports_to: "${pick(ids)}"`)],
  ["delegates", (s) => s.replace(/can_delegate_to: \[[^\]]*\]/, () => `can_delegate_to: ["${pick(ids)}"]`)],
];

const edits = [];
const rssSeries = [{ edit: 0, rss: rss() }];
const cpu0 = cpu();
let failure = null;
let fixNext = null;
for (let i = 0; i < args.edits && !failure; i++) {
  const d = fixNext ?? pick(docs);
  let kind, next;
  if (fixNext || (rand() < 0.25 && d.texts.length > 1)) {
    kind = "undo";
    d.texts.pop();
    next = d.texts[d.texts.length - 1];
  } else {
    const [name, f] = pick(mutators);
    kind = name;
    next = f(d.text);
    d.texts.push(next);
  }
  fixNext = kind === "typo" ? d : null;
  d.text = next;
  d.version++;
  const got = published(d.uri, d.version);
  const sent = performance.now();
  conn.sendNotification("textDocument/didChange", {
    textDocument: { uri: d.uri, version: d.version },
    contentChanges: [{ text: next }],
  });
  const gap = (args.min + rand() * (args.max - args.min)) * 1000;
  const [outcome] = await Promise.allSettled([got.then((at) => at - sent), sleep(gap)]);
  if (outcome.status === "rejected") {
    failure = outcome.reason.message;
    break;
  }
  edits.push({ kind, file: d.path.slice(args.root.length + 1), ms: Math.round(outcome.value * 10) / 10 });
  if (args["rss-every"] > 0 && (i + 1) % args["rss-every"] === 0) rssSeries.push({ edit: i + 1, rss: rss() });
}

const cpuEdits = cpu0 === null || edits.length === 0 ? null : Math.round(((cpu() - cpu0) / edits.length) * 10) / 10;

// Let the last edit's evaluation land, then compare with charter lint.
let mismatch = null;
if (!failure && args.check) {
  await sleep(500);
  for (const d of docs) writeFileSync(d.path, d.text);
  let out;
  try {
    out = execFileSync(args.charter, ["lint", "--format", "json", "--fail-level", "error"], { cwd: args.root, maxBuffer: 1 << 30 });
  } catch (e) {
    out = e.stdout; // exit 1: findings
  }
  const want = new Map();
  for (const f of JSON.parse(out.toString())) {
    const uri = pathToFileURL(join(args.root, f.file)).href;
    if (!want.has(uri)) want.set(uri, []);
    want.get(uri).push(`${f.line}: ${f.rule ?? ""}: ${f.message}`);
  }
  const got = new Map();
  for (const [uri, ds] of held) {
    if (ds.length) got.set(uri, ds.map((x) => `${x.range.start.line + 1}: ${x.code ?? ""}: ${x.message}`));
  }
  const diffs = [];
  for (const uri of new Set([...want.keys(), ...got.keys()])) {
    const a = (got.get(uri) ?? []).sort().join("\n");
    const b = (want.get(uri) ?? []).sort().join("\n");
    if (a !== b) diffs.push({ uri, editor: a, lint: b });
  }
  if (diffs.length) mismatch = diffs.slice(0, 5);
  else
    process.stderr.write(
      `lspdrive: the editor's diagnostics equal charter lint's (${got.size} files, ${[...got.values()].reduce((n, l) => n + l.length, 0)} findings)\n`,
    );
}

rssSeries.push({ edit: edits.length, rss: rss() });
const ms = edits.map((e) => e.ms).sort((a, b) => a - b);
const q = (p) => (ms.length ? ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)] : null);
const report = {
  files: docs.length,
  firstEvaluationMs: Math.round(firstEvaluation),
  edits: edits.length,
  p50: q(0.5),
  p95: q(0.95),
  max: q(1),
  cpuMsPerEdit: cpuEdits,
  failure,
  mismatch,
  rss: rssSeries,
  each: edits,
};
console.log(JSON.stringify(report, null, 1));
conn.dispose();
server.kill();
process.exit(failure || mismatch ? 1 : 0);
