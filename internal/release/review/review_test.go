package review

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
)

func config() *model.Config {
	return &model.Config{
		Agents: map[string]*model.Agent{
			"coder":  {Type: "worker", Owners: []string{"lee"}, Authority: model.Authority{ReportsTo: "eng_lead"}},
			"tester": {Type: "worker"},
			"boss":   {Type: "worker", Owners: []string{"boss@example.com"}},
			"intern": {Type: "worker", Owners: []string{"@kim"}, Authority: model.Authority{ReportsTo: "boss"}},
		},
		AgentTypes: map[string]*model.AgentType{"worker": {Owners: []string{"@acme/workers"}}},
		Roles:      map[string]*model.Role{"eng_lead": {Owners: []string{"@acme/leads"}}},
		Profiles:   map[string]*model.Profile{"strict": {Owners: []string{"@sec"}}},
		People: map[string]*model.Person{
			"lee": {GitHub: "@lee", Email: "lee@example.com"},
			"sam": {GitHub: "@sam", Email: "sam@example.com", Teams: []string{"@acme/leads"}},
			"ada": {GitHub: "@ada", Email: "ada@example.com", Teams: []string{"@acme/workers"}},
		},
		Repository: model.RepositorySettings{Owners: []string{"@acme/platform"}},
	}
}

func widened(agent string) diff.Change {
	return diff.Change{Path: "agents." + agent + ".authority.budget_limit", Change: diff.Modified, Effect: diff.Widened, Agent: agent,
		Old: json.RawMessage("1"), New: json.RawMessage("2"), Reason: "budget limit raised"}
}

// The commits approvals name: head is the range's last; before, one
// before coder widened further; other, one after which only tester
// changed; gone, one the repository does not have.
var (
	head   = strings.Repeat("ab", 20)
	before = strings.Repeat("01", 20)
	other  = strings.Repeat("02", 20)
	gone   = strings.Repeat("03", 20)
)

// since is Input.Since over the commits above.
func since(commit string) ([]diff.Change, error) {
	switch commit {
	case head:
		return nil, nil
	case before:
		return []diff.Change{widened("coder"), widened("intern")}, nil
	case other:
		return []diff.Change{widened("tester"), {Path: "agents.coder.authority.budget_limit", Effect: diff.Narrowed, Agent: "coder"}}, nil
	}
	return nil, errors.New("unknown revision " + commit)
}

func commit(author string, approvedBy ...string) history.Commit {
	return commitAt(head, author, approvedBy...)
}

func commitAt(hash, author string, approvedBy ...string) history.Commit {
	return history.Commit{Hash: plumbing.NewHash(hash), Author: source.Person{Email: author}, ApprovedBy: approvedBy}
}

func review(login, state string) Review {
	return reviewAt(head, login, state)
}

func reviewAt(commit, login, state string) Review {
	var r Review
	r.User.Login, r.State, r.CommitID = login, state, commit
	return r
}

type verdict struct {
	Approvers []string
	Counted   []string
	Refused   map[string]string
	Approved  bool
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		name    string
		base    func(*model.Config)
		change  diff.Change
		commits []history.Commit
		reviews []Review
		want    verdict
	}{
		{name: "an owner's trailer, by person's address", change: widened("coder"),
			commits: []history.Commit{commit("ada@example.com", "Lee <lee@example.com>")},
			want:    verdict{Approvers: []string{"lee", "@acme/leads"}, Counted: []string{"Lee <lee@example.com>"}, Approved: true}},
		{name: "the author approves nothing, whichever name they use", change: widened("coder"),
			commits: []history.Commit{commit("LEE@example.com", "Lee <lee@example.com>")},
			reviews: []Review{review("lee", "APPROVED")},
			want: verdict{Approvers: []string{"lee", "@acme/leads"}, Refused: map[string]string{
				"Lee <lee@example.com>": "an author of the range's commits approves nothing in it",
				"@lee":                  "an author of the range's commits approves nothing in it"}}},
		{name: "a team owner: a declared member's review", change: widened("coder"),
			commits: []history.Commit{commit("ada@example.com")},
			reviews: []Review{review("sam", "APPROVED")},
			want:    verdict{Approvers: []string{"lee", "@acme/leads"}, Counted: []string{"@sam"}, Approved: true}},
		{name: "a retracted approval and a comment", change: widened("coder"),
			commits: []history.Commit{commit("ada@example.com")},
			reviews: []Review{review("lee", "APPROVED"), review("lee", "COMMENTED"), review("lee", "CHANGES_REQUESTED"), review("sam", "COMMENTED")},
			want:    verdict{Approvers: []string{"lee", "@acme/leads"}}},
		{name: "an unknown person, and a non-owner", change: widened("coder"),
			commits: []history.Commit{commit("ada@example.com", "Eve <eve@example.com>", "Ada <ada@example.com>", "just a name")},
			reviews: []Review{review("mallory", "APPROVED")},
			want: verdict{Approvers: []string{"lee", "@acme/leads"}, Refused: map[string]string{
				"Eve <eve@example.com>": "not an owner, and no person declared under people has this address",
				"Ada <ada@example.com>": "an author of the range's commits approves nothing in it",
				"just a name":           "names no e-mail address or GitHub login",
				"@mallory":              "not an owner, and no person declared under people has this login"}}},
		{name: "inherited from the type; reports_to an agent", change: widened("intern"),
			commits: []history.Commit{commit("x@example.com", "boss@example.com")},
			want:    verdict{Approvers: []string{"@kim", "boss@example.com"}, Counted: []string{"boss@example.com"}, Approved: true}},
		{name: "owners from the type", change: widened("tester"),
			commits: []history.Commit{commit("x@example.com", "ada@example.com")},
			want:    verdict{Approvers: []string{"@acme/workers"}, Counted: []string{"ada@example.com"}, Approved: true}},
		{name: "the base's owners, not those the change declares",
			base: func(c *model.Config) {
				c.Agents["coder"].Owners = []string{"@kim"}
				c.Agents["coder"].Authority.ReportsTo = ""
			},
			change:  widened("coder"),
			commits: []history.Commit{commit("x@example.com", "lee@example.com")},
			want:    verdict{Approvers: []string{"@kim"}, Refused: map[string]string{"lee@example.com": "not an owner"}}},
		{name: "a new agent: its type's owners at the base",
			base:    func(c *model.Config) { delete(c.Agents, "coder") },
			change:  widened("coder"),
			commits: []history.Commit{commit("x@example.com", "lee@example.com")},
			want:    verdict{Approvers: []string{"@acme/workers"}, Refused: map[string]string{"lee@example.com": "not an owner"}}},
		{name: "nobody declared", base: func(c *model.Config) { *c = model.Config{} },
			change: widened("ghost"), commits: []history.Commit{commit("x@example.com", "lee@example.com")},
			want: verdict{Approvers: []string{}, Refused: map[string]string{"lee@example.com": "nobody may approve: declare owners"}}},
		{name: "approvals given before the agent widened further", change: widened("coder"),
			commits: []history.Commit{commitAt(before, "ada@example.com", "lee@example.com"), commit("x@example.com")},
			reviews: []Review{reviewAt(before, "sam", "APPROVED")},
			want: verdict{Approvers: []string{"lee", "@acme/leads"}, Refused: map[string]string{
				"lee@example.com": "given on 010101010101, before agents.coder.authority.budget_limit widened: 1 -> 2 (budget limit raised); approve again on the head",
				"@sam":            "given on 010101010101, before agents.coder.authority.budget_limit widened: 1 -> 2 (budget limit raised); approve again on the head"}}},
		{name: "approvals given before other agents changed, or this one narrowed", change: widened("coder"),
			commits: []history.Commit{commitAt(other, "ada@example.com", "lee@example.com")},
			reviews: []Review{reviewAt(other, "sam", "APPROVED")},
			want:    verdict{Approvers: []string{"lee", "@acme/leads"}, Counted: []string{"lee@example.com", "@sam"}, Approved: true}},
		{name: "the latest approval's commit counts", change: widened("coder"),
			commits: []history.Commit{commit("ada@example.com")},
			reviews: []Review{reviewAt(before, "sam", "APPROVED"), reviewAt(head, "sam", "APPROVED")},
			want:    verdict{Approvers: []string{"lee", "@acme/leads"}, Counted: []string{"@sam"}, Approved: true}},
		{name: "reviews whose commit is unknown, missing or not a hash", change: widened("coder"),
			commits: []history.Commit{commit("ada@example.com")},
			reviews: []Review{reviewAt(gone, "sam", "APPROVED"), reviewAt("", "lee", "APPROVED"), reviewAt("HEAD", "ada", "APPROVED")},
			want: verdict{Approvers: []string{"lee", "@acme/leads"}, Refused: map[string]string{
				"@sam": "given on 030303030303: unknown revision 0303030303030303030303030303030303030303; approve again on the head",
				"@lee": "names no commit (GitHub gives none when the commit is gone): what it approved is unknown; approve again",
				"@ada": "an author of the range's commits approves nothing in it"}}},
		{name: "a revision expression is not a commit", change: widened("coder"),
			commits: []history.Commit{commit("x@example.com")},
			reviews: []Review{reviewAt("HEAD", "sam", "APPROVED")},
			want: verdict{Approvers: []string{"lee", "@acme/leads"}, Refused: map[string]string{
				"@sam": `its commit "HEAD" is not a commit hash: what it approved is unknown; approve again`}}},
		{name: "a profile's widening", change: diff.Change{Path: "profiles.strict.rules.x.enabled", Effect: diff.Widened},
			reviews: []Review{review("sec", "APPROVED")}, commits: []history.Commit{commit("x@example.com")},
			want: verdict{Approvers: []string{"@sec"}, Counted: []string{"@sec"}, Approved: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, head := config(), config()
			if c.base != nil {
				c.base(base)
			}
			r := Run(Input{From: "a", To: "b", Base: base, Head: head, Changes: []diff.Change{c.change, {Path: "agents.coder.name", Effect: diff.Neutral, Agent: "coder"}}, Commits: c.commits, Reviews: c.reviews, Since: since})
			if len(r.Items) != 1 {
				t.Fatalf("%d items, want 1 (neutral changes need no approval)", len(r.Items))
			}
			it := r.Items[0]
			got := verdict{Approvers: it.Approvers, Approved: it.Approved}
			for _, a := range it.Approvals {
				if a.Counted {
					got.Counted = append(got.Counted, a.By)
				} else {
					if got.Refused == nil {
						got.Refused = map[string]string{}
					}
					got.Refused[a.By] = a.Reason
				}
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if r.OK != it.Approved || (r.Unapproved == 0) != it.Approved {
				t.Errorf("report OK %v, unapproved %d; item approved %v", r.OK, r.Unapproved, it.Approved)
			}
		})
	}
}

func TestParseReviews(t *testing.T) {
	good := `[{"user":{"login":"lee"},"state":"APPROVED","commit_id":"ab"}]
[{"user":{"login":"sam"},"state":"COMMENTED"}]`
	rs, err := ParseReviews(strings.NewReader(good))
	if err != nil || len(rs) != 2 || rs[1].User.Login != "sam" {
		t.Fatalf("ParseReviews(two pages) = %+v, %v", rs, err)
	}
	for in, want := range map[string]string{
		"":                                    "empty",
		`{"message":"Not Found"}`:             "not GitHub's shape: want a list of reviews (as gh api repos/OWNER/REPO/pulls/N/reviews prints), got an object",
		`[{"user":"lee","state":"APPROVED"}]`: "review 1 has no user.login or no state",
		`[{"user":{"login":"lee"}}]`:          "review 1 has no user.login or no state",
		`[1]`:                                 "not GitHub's shape",
		`[{"user":{"login":"lee"},"state":"APPROVED"}`: "not JSON",
	} {
		if _, err := ParseReviews(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseReviews(%q) = %v, want %q", in, err, want)
		}
	}
}

func FuzzParseReviews(f *testing.F) {
	f.Add(`[{"user":{"login":"lee"},"state":"APPROVED"}]`)
	f.Add(`[][]`)
	f.Add(`{"a":1}`)
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseReviews(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.User.Login == "" || r.State == "" {
				t.Fatalf("accepted a review without login or state: %+v", r)
			}
		}
		approvedReviews(rs)
	})
}

// TestMarkdownCellsKeepToOneRow: a reason of several lines (an evaluation
// error's text) stays in its table row.
func TestMarkdownCellsKeepToOneRow(t *testing.T) {
	r := &Report{From: "a", To: "b", Items: []*Item{{Agent: "coder", Changes: []diff.Change{widened("coder")},
		Approvals: []Approval{{By: "@lee", Source: "review", Commit: head, Reason: "given on x: line one\nline two"}}}}}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if strings.Contains(line, "line two") && !strings.HasPrefix(line, "| ") {
			t.Errorf("the reason's second line left its row:\n%s", b.String())
		}
	}
}
