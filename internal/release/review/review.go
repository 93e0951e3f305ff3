// Package review checks that every change that widens an agent was
// approved by someone allowed to (docs/release.md): the agent's owners and
// the owners of the agent or role it reports to, never the author of a
// commit of the change. Approvals come from Approved-by: trailers of the
// range's commits and from a pull request's reviews as GitHub's API lists
// them.
//
// Who may approve is read from the base revision, where the agent exists
// there: a change cannot name its own approvers. An agent the range adds
// takes its type's owners at the base (else the base repository's), and
// only when the base names none, its own.
package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/mail"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/history"
)

// Approval is one approval found, counted or not.
type Approval struct {
	// By is who approved, as written: a trailer's value or @login.
	By string `json:"by"`
	// Source is "trailer" or "review".
	Source string `json:"source"`
	// Commit is the commit approved: the trailer's, or the one the review
	// was given on (GitHub's commit_id). An approval covers a widening
	// only as that commit holds it: when the item widens further after
	// it, the approval is not counted.
	Commit string `json:"commit,omitempty"`
	// Counted is set when the approval is by an allowed approver; Reason
	// says otherwise why not.
	Counted bool   `json:"counted"`
	Reason  string `json:"reason,omitempty"`
}

// Item is what needs approval: the widened changes of one agent (Agent
// set) or of one other declaration (Declaration set, such as
// profiles.strict).
type Item struct {
	Agent       string        `json:"agent,omitempty"`
	Declaration string        `json:"declaration,omitempty"`
	Changes     []diff.Change `json:"changes"`
	// Approvers are the owners allowed to approve, as declared.
	Approvers []string   `json:"approvers"`
	Approvals []Approval `json:"approvals"`
	Approved  bool       `json:"approved"`
	// Note says where the approvers came from when it is not the obvious.
	Note string `json:"note,omitempty"`
}

// Name is the item's agent or declaration.
func (it *Item) Name() string { return it.Agent + it.Declaration }

// Report is the outcome of a review.
type Report struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Commits int    `json:"commits"`
	// Authors are the addresses of the range's commit authors, who
	// approve nothing in it.
	Authors []string `json:"authors"`
	Items   []*Item  `json:"items"`
	// Unapproved counts the items without a counted approval.
	Unapproved int  `json:"unapproved"`
	OK         bool `json:"ok"`
}

// Input is what a review looks at.
type Input struct {
	From, To string
	// Base and Head are the configurations at From and To.
	Base, Head *model.Config
	// Changes are every change from Base to Head (diff's classes).
	Changes []diff.Change
	// Commits are the range's commits (history.Between).
	Commits []history.Commit
	// Reviews are the pull request's reviews (ParseReviews), if any.
	Reviews []Review
	// Since returns the changes from the configuration at an approval's
	// commit to Head, as Changes holds those from Base to Head (none when
	// the commit is To's). Its error says why it cannot tell (a commit
	// this repository does not have, a configuration there that does not
	// validate); the approval then counts for nothing, as when Since is
	// nil.
	Since func(commit string) ([]diff.Change, error)
}

// identity is who an approval or an author is: what is known of them.
type identity struct {
	email, login string // lower case; login with its @
	person       string
	teams        []string
}

// Run reviews in.
func Run(in Input) *Report {
	r := &Report{From: in.From, To: in.To, Commits: len(in.Commits), Authors: []string{}, Items: []*Item{}}
	people := newPeople(in.Base, in.Head)
	var authors []identity
	seenAuthor := map[string]bool{}
	for _, c := range in.Commits {
		id := people.byEmail(c.Author.Email)
		authors = append(authors, id)
		if !seenAuthor[id.email] {
			seenAuthor[id.email] = true
			r.Authors = append(r.Authors, c.Author.Email)
		}
	}
	items := map[string]*Item{}
	var order []string
	for _, c := range in.Changes {
		if c.Effect != diff.Widened {
			continue
		}
		key := itemKey(c)
		it, ok := items[key]
		if !ok {
			it = &Item{Agent: c.Agent, Changes: []diff.Change{}, Approvals: []Approval{}}
			if c.Agent == "" {
				it.Declaration = key
			}
			it.Approvers, it.Note = approvers(in.Base, in.Head, it)
			if it.Approvers == nil {
				it.Approvers = []string{}
			}
			items[key] = it
			order = append(order, key)
		}
		it.Changes = append(it.Changes, c)
	}
	slices.Sort(order)
	since := newSince(in.Since)
	for _, key := range order {
		it := items[key]
		for _, c := range in.Commits {
			for _, by := range c.ApprovedBy {
				it.Approvals = append(it.Approvals, judge(people, authors, it.Approvers, Approval{By: by, Source: "trailer", Commit: c.Hash.String()}, people.byTrailer(by)))
			}
		}
		for _, rv := range approvedReviews(in.Reviews) {
			it.Approvals = append(it.Approvals, judge(people, authors, it.Approvers, Approval{By: "@" + rv.User.Login, Source: "review", Commit: rv.CommitID}, people.byLogin("@"+rv.User.Login)))
		}
		for i, a := range it.Approvals {
			if a.Counted {
				if reason := since.widensAfter(a.Commit, key); reason != "" {
					it.Approvals[i].Counted, it.Approvals[i].Reason = false, reason
				}
			}
			it.Approved = it.Approved || it.Approvals[i].Counted
		}
		if !it.Approved {
			r.Unapproved++
		}
		r.Items = append(r.Items, it)
	}
	r.OK = r.Unapproved == 0
	return r
}

// itemKey is the item a change belongs to: its agent, else its
// declaration.
func itemKey(c diff.Change) string {
	if c.Agent != "" {
		return c.Agent
	}
	return declarationOf(c.Path)
}

// sinceCache asks Input.Since once per commit.
type sinceCache struct {
	since func(string) ([]diff.Change, error)
	seen  map[string]sinceResult
}

type sinceResult struct {
	changes []diff.Change
	err     error
}

func newSince(f func(string) ([]diff.Change, error)) *sinceCache {
	return &sinceCache{since: f, seen: map[string]sinceResult{}}
}

// widensAfter returns why an approval given on commit does not cover
// item key as Head has it ("" when it does): the commit is unknown, or a
// change after it widens the item further.
func (s *sinceCache) widensAfter(commit, key string) string {
	if commit == "" {
		return "names no commit (GitHub gives none when the commit is gone): what it approved is unknown; approve again"
	}
	if !isHash(commit) {
		return fmt.Sprintf("its commit %q is not a commit hash: what it approved is unknown; approve again", commit)
	}
	short := commit[:12]
	r, ok := s.seen[commit]
	if !ok {
		if s.since == nil {
			r.err = fmt.Errorf("the review had no repository to compare it in")
		} else {
			r.changes, r.err = s.since(commit)
		}
		s.seen[commit] = r
	}
	if r.err != nil {
		return fmt.Sprintf("given on %s: %v; approve again on the head", short, r.err)
	}
	for _, c := range r.changes {
		if c.Effect == diff.Widened && itemKey(c) == key {
			return fmt.Sprintf("given on %s, before %s widened: %s; approve again on the head", short, c.Path, diff.Describe(c))
		}
	}
	return ""
}

// isHash reports whether s is a full commit hash, SHA-1 or SHA-256, in
// lower-case hex: what Git's trailers and GitHub's commit_id give, never
// a revision expression such as HEAD.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// declarationOf returns the declaration a path is in: its first two
// labels (profiles.strict).
func declarationOf(path string) string {
	parts := strings.SplitN(path, ".", 3)
	if len(parts) < 2 {
		return path
	}
	return parts[0] + "." + parts[1]
}

// approvers returns who may approve it's changes, from the base where it
// exists there.
func approvers(base, head *model.Config, it *Item) ([]string, string) {
	if it.Agent != "" {
		if _, ok := base.Agents[it.Agent]; ok {
			return base.Approvers(it.Agent), ""
		}
		a := head.Agents[it.Agent]
		if a != nil {
			if _, ok := base.AgentTypes[a.Type]; ok {
				if o := base.TypeOwners(a.Type); len(o) > 0 {
					return o, "a new agent: its type's owners at the base approve it"
				}
			}
		}
		if o := base.Repository.Owners; len(o) > 0 {
			return o, "a new agent: the repository's owners at the base approve it"
		}
		return head.Approvers(it.Agent), "a new agent, and the base names no owner: its own owners approve it"
	}
	kind, name, _ := strings.Cut(it.Declaration, ".")
	for _, c := range []*model.Config{base, head} {
		var o []string
		switch kind {
		case "profiles":
			if _, ok := c.Profiles[name]; ok {
				o = c.ProfileOwners(name)
			}
		case "agentTypes":
			if _, ok := c.AgentTypes[name]; ok {
				o = c.TypeOwners(name)
			}
		case "roles":
			if _, ok := c.Roles[name]; ok {
				o = c.RoleOwners(name)
			}
		}
		if o == nil {
			o = c.Repository.Owners
		}
		if len(o) > 0 {
			if c == head {
				return o, "the base names no owner: the owners it declares approve it"
			}
			return o, ""
		}
	}
	return nil, ""
}

// judge decides whether approval a, by identity who, counts for an item
// that approvers may approve.
func judge(p *people, authors []identity, approvers []string, a Approval, who identity) Approval {
	if who.email == "" && who.login == "" {
		a.Reason = "names no e-mail address or GitHub login"
		return a
	}
	for _, au := range authors {
		if same(who, au) {
			a.Reason = "an author of the range's commits approves nothing in it"
			return a
		}
	}
	for _, o := range approvers {
		if p.matches(o, who) {
			a.Counted = true
			return a
		}
	}
	switch {
	case len(approvers) == 0:
		a.Reason = "nobody may approve: declare owners"
	case who.person == "" && a.Source == "trailer":
		a.Reason = "not an owner, and no person declared under people has this address"
	case who.person == "":
		a.Reason = "not an owner, and no person declared under people has this login"
	default:
		a.Reason = "not an owner"
	}
	return a
}

func same(a, b identity) bool {
	return a.person != "" && a.person == b.person ||
		a.email != "" && a.email == b.email ||
		a.login != "" && a.login == b.login
}

// people resolves addresses and logins to declared people, from the base
// and then the head (the base wins where both declare a name).
type people struct {
	list map[string]*model.Person
}

func newPeople(base, head *model.Config) *people {
	p := &people{list: map[string]*model.Person{}}
	for _, c := range []*model.Config{head, base} {
		for n, x := range c.People {
			p.list[n] = x
		}
	}
	return p
}

func (p *people) find(match func(*model.Person) bool) (string, *model.Person) {
	for _, n := range model.Sorted(p.list) {
		if match(p.list[n]) {
			return n, p.list[n]
		}
	}
	return "", nil
}

func (p *people) ident(name string, x *model.Person, id identity) identity {
	if x == nil {
		return id
	}
	id.person = name
	id.email = cmpOr(id.email, strings.ToLower(x.Email))
	id.login = cmpOr(id.login, strings.ToLower(x.GitHub))
	for _, t := range x.Teams {
		id.teams = append(id.teams, strings.ToLower(t))
	}
	return id
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (p *people) byEmail(email string) identity {
	e := strings.ToLower(strings.TrimSpace(email))
	n, x := p.find(func(x *model.Person) bool { return e != "" && strings.EqualFold(x.Email, e) })
	return p.ident(n, x, identity{email: e})
}

func (p *people) byLogin(login string) identity {
	l := strings.ToLower("@" + strings.TrimPrefix(login, "@"))
	n, x := p.find(func(x *model.Person) bool { return strings.EqualFold(x.GitHub, l) })
	return p.ident(n, x, identity{login: l})
}

// byTrailer reads "Name <address>", a bare address, or @login.
func (p *people) byTrailer(v string) identity {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "@") && !strings.ContainsAny(v, " <>") {
		return p.byLogin(v)
	}
	if a, err := mail.ParseAddress(v); err == nil {
		return p.byEmail(a.Address)
	}
	if i, j := strings.LastIndex(v, "<"), strings.LastIndex(v, ">"); i >= 0 && j > i {
		return p.byEmail(v[i+1 : j])
	}
	if strings.Contains(v, "@") && !strings.Contains(v, " ") {
		return p.byEmail(v)
	}
	return identity{}
}

// matches reports whether owner o names who.
func (p *people) matches(o string, who identity) bool {
	l := strings.ToLower(o)
	switch {
	case strings.HasPrefix(l, "@") && strings.Contains(l, "/"):
		return slices.Contains(who.teams, l)
	case strings.HasPrefix(l, "@"):
		return who.login == l
	case strings.Contains(l, "@"):
		return who.email == l
	}
	return who.person != "" && who.person == o
}

// Review is one review of a pull request, as GitHub's API lists them
// (GET /repos/OWNER/REPO/pulls/N/reviews).
type Review struct {
	User struct {
		Login string `json:"login"`
	} `json:"user"`
	State    string `json:"state"`
	CommitID string `json:"commit_id"`
}

// maxReviews bounds the reviews file.
const maxReviews = 16 << 20

// ParseReviews reads the JSON `gh api repos/O/R/pulls/N/reviews` prints:
// a list of reviews, each with user.login and state. `gh api --paginate`
// prints one list per page, one after the other: they are read in turn.
func ParseReviews(r io.Reader) ([]Review, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxReviews+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxReviews {
		return nil, fmt.Errorf("more than %d bytes: not a list of reviews", maxReviews)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var out []Review
	for page := 1; ; page++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			if page == 1 {
				return nil, fmt.Errorf("empty: want the JSON list GitHub's pulls/N/reviews API returns")
			}
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("not GitHub's shape: want a list of reviews (as gh api repos/OWNER/REPO/pulls/N/reviews prints), got %s", kindOf(raw))
		}
		for i, m := range list {
			var rv Review
			if err := json.Unmarshal(mustJSON(m), &rv); err != nil || rv.User.Login == "" || rv.State == "" {
				return nil, fmt.Errorf("not GitHub's shape: review %d has no user.login or no state", len(out)+i+1)
			}
			out = append(out, rv)
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func kindOf(raw json.RawMessage) string {
	switch t := bytes.TrimSpace(raw); {
	case len(t) > 0 && t[0] == '{':
		return "an object"
	case len(t) > 0 && t[0] == '"':
		return "a string"
	}
	return "a value"
}

// approvedReviews returns, per login, the latest deciding review when it
// approves: a later CHANGES_REQUESTED or DISMISSED takes an approval back;
// a COMMENTED one leaves it.
func approvedReviews(rs []Review) []Review {
	latest := map[string]Review{}
	var order []string
	for _, r := range rs {
		l := r.User.Login
		switch strings.ToUpper(r.State) {
		case "APPROVED", "CHANGES_REQUESTED", "DISMISSED":
			if _, ok := latest[l]; !ok {
				order = append(order, l)
			}
			latest[l] = r
		}
	}
	var out []Review
	for _, l := range order {
		if strings.ToUpper(latest[l].State) == "APPROVED" {
			out = append(out, latest[l])
		}
	}
	return out
}
