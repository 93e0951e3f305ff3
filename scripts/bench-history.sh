#!/usr/bin/env bash
# bench-history.sh [DIR] — make a synthetic repository for history benchmarks
# and time charter's history walk against git log on it.
#
# The repository (default /tmp/charter-history-bench, replaced if present)
# has 5,000 commits on main, about 1,000 of which change the config root
# config/, which holds 200 agent files config/agents/aNNN.cue. Every 25th
# commit is made on a topic branch and every 100th merges it back, so the
# walk meets merges. Built with git fast-import from a deterministic
# stream: the same commit hashes on every run and machine.
#
# COMMITS=50000 makes the large case of issue 16: 50,000 commits, 10,000 of
# which change the config (one in five, as at 5,000).
#
# Environment:
#   COMMITS=5000        number of commits
#   COMMIT_GRAPH=1      write a commit-graph file (as git gc does); 0 not to
#   RUNS=5              timed runs of each command
#   GENERATE_ONLY=1     make the repository and stop
set -euo pipefail

dir=${1:-/tmp/charter-history-bench}
commits=${COMMITS:-5000}
runs=${RUNS:-5}
here=$(cd "$(dirname "$0")/.." && pwd)

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C TZ=UTC
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

rm -rf "$dir"
mkdir -p "$dir"
git -C "$dir" init -q -b main

# The stream. Commit i (1-based) is at 1735787045 + 60*i.
#   i == 1            creates the 200 agents and README
#   i % 100 == 0      merges topic into main (replaying topic's changes)
#   i % 50 == 25      a config change on topic
#   i % 5 == 0        a config change on main (edit, delete, re-create, add)
#   otherwise         a change outside config/ (src/, docs/)
awk -v n="$commits" '
function agent(k, v,    id, t, m) {
	id = sprintf("a%03d", k)
	t = (v * 7 + k) % 10
	m = (v + k) % 7
	return sprintf("agents: %s: {name: \"A %d\", type: \"t%d\", model: {provider: \"p\", model_id: \"m%d\", temperature: 0.%d}}\n", id, k, v % 3, m, t)
}
function data(s) { printf "data %d\n%s\n", length(s), s }
function header(ref, i, msg) {
	printf "commit refs/heads/%s\nmark :%d\n", ref, i
	printf "author Ada Author <ada@example.com> %d +0000\n", 1735787045 + 60 * i
	printf "committer Cy Committer <cy@example.com> %d +0000\n", 1735787045 + 60 * i
	data(msg)
}
function put(path, content) { printf "M 100644 inline %s\n", path; data(content) }
# config_change writes one edit of the config root for commit i and
# remembers it in the arrays last_path/last_content/last_del (count nlast).
function config_change(i,    k, kind, p) {
	k = (i * 37) % 200 + 1
	kind = (i / 5) % 13
	p = sprintf("config/agents/a%03d.cue", k)
	if (kind == 3 && !(k in gone)) {
		printf "D %s\n", p
		gone[k] = 1
		nlast++; last_path[nlast] = p; last_del[nlast] = 1
		return
	}
	delete gone[k]
	c = agent(k, i)
	if (kind == 7) c = c "// reviewed\n"
	put(p, c)
	nlast++; last_path[nlast] = p; last_content[nlast] = c; last_del[nlast] = 0
}
BEGIN {
	header("main", 1, "Initial agents")
	put("README.md", "# bench\n")
	for (k = 1; k <= 200; k++) put(sprintf("config/agents/a%03d.cue", k), agent(k, 0))
	put("config/cue.mod/module.cue", "module: \"example.com/bench\"\nlanguage: version: \"v0.17.0\"\n")
	types = ""
	for (t = 0; t < 3; t++) types = types sprintf("agentTypes: t%d: {name: \"Type %d\", system_prompt: \"You are {agent.name}, of type %d.\"}\n", t, t, t)
	put("config/types.cue", types)
	printf "reset refs/heads/topic\nfrom :1\n\n"
	mainmark = 1; topicmark = 1
	for (i = 2; i <= n; i++) {
		if (i % 100 == 0) {
			header("main", i, sprintf("Merge topic into main (%d)\n\nReviewed-by: Rae Reviewer <rae@example.com>", i))
			printf "from :%d\nmerge :%d\n", mainmark, topicmark
			for (j = 1; j <= ntopic; j++) {
				if (topic_del[j]) printf "D %s\n", topic_path[j]
				else put(topic_path[j], topic_content[j])
			}
			ntopic = 0
			mainmark = i
			printf "reset refs/heads/topic\nfrom :%d\n\n", i
			topicmark = i
		} else if (i % 50 == 25) {
			header("topic", i, sprintf("Topic change %d", i))
			printf "from :%d\n", topicmark
			nlast = 0
			config_change(i + 1)
			for (j = 1; j <= nlast; j++) {
				ntopic++; topic_path[ntopic] = last_path[j]; topic_content[ntopic] = last_content[j]; topic_del[ntopic] = last_del[j]
			}
			topicmark = i
		} else if (i % 5 == 0) {
			header("main", i, sprintf("Config change %d\n\nApproved-by: Abe Approver <abe@example.com>", i))
			printf "from :%d\n", mainmark
			nlast = 0
			config_change(i)
			mainmark = i
		} else {
			header("main", i, sprintf("Code change %d", i))
			printf "from :%d\n", mainmark
			put(sprintf("src/f%02d.txt", i % 40), sprintf("%d\n", i))
			if (i % 7 == 0) put(sprintf("docs/d%d.md", i % 9), sprintf("doc %d\n", i))
			mainmark = i
		}
	}
}' | git -C "$dir" fast-import --quiet

git -C "$dir" checkout -q main
if [ "${COMMIT_GRAPH:-1}" = 1 ]; then
	git -C "$dir" commit-graph write --reachable
fi

echo "repository: $dir"
echo "commits on main:          $(git -C "$dir" rev-list --count main)"
echo "git log -- config lists:  $(git -C "$dir" log --format=%H main -- config | wc -l)"
echo "commit-graph:             $([ -e "$dir/.git/objects/info/commit-graph" ] && echo yes || echo no)"
[ "${GENERATE_ONLY:-0}" = 1 ] && exit 0

echo
echo "== git log --format=%H main -- config ($runs runs)"
for _ in $(seq "$runs"); do
	/usr/bin/env time -f "%e s  %M KiB" git -C "$dir" log --format=%H main -- config >/dev/null
done 2>&1

echo
echo "== history.Walk (go test -bench BenchmarkWalkRepo, $runs runs each)"
cd "$here"
CHARTER_BENCH_REPO="$dir" go test -run '^$' -bench 'BenchmarkWalkRepo|BenchmarkIndexRepo' -benchtime "${runs}x" -count 1 ./history/
