package rules

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
)

// Session is what the engine knows of one agent run: the calls that ran,
// oldest first, the aggregates CEL expressions read (kept up to date by
// Record, so that no rule has to walk the whole history), and when each rule
// last fired (for cooldowns).
//
// The zero Session is empty and ready to use. A Session is not safe for
// concurrent use; Evaluate updates it (cooldowns, cached scans), so even
// evaluations of one session must not run at the same time.
type Session struct {
	calls  []entry
	tools  map[string]*toolStats
	fired  map[string]int
	streak int
	memo   map[memoKey]*memoEntry
	// firedLines counts the fired lines read from a saved session.
	firedLines int
	// asked maps a call the user was asked about (its ID, or its
	// fingerprint when it has none) to the ask rules that fired on it,
	// until the call is recorded (approved); askOrder is the keys, oldest
	// first, and askLines the ask lines read from a saved session.
	asked    map[string][]string
	askOrder []string
	askLines int
	// newAsks are the asks made since the session was loaded, for Store.
	newAsks []askEvent
}

// askEvent is one ask rule firing on one call, as a saved session keeps
// it until the call runs.
type askEvent struct {
	Ask string `json:"ask"`
	Key string `json:"key"`
}

// maxPendingAsks bounds the calls a session remembers it asked about; a
// call asked about longer ago is asked about again.
const maxPendingAsks = 256

// askKey is the key a call's ask is kept under: its ID, or its fingerprint.
func askKey(id, fp string) string {
	if id != "" {
		return "id:" + id
	}
	return "fp:" + fp
}

// ask notes that the ask rule fired on call: when the call is recorded
// (the user approved it and it ran), the rule is marked fired there.
func (s *Session) ask(c Call, fp, rule string) {
	key := askKey(c.ID, fp)
	if s.addAsk(key, rule) {
		s.newAsks = append(s.newAsks, askEvent{Ask: rule, Key: key})
	}
}

// addAsk adds a pending ask; false when it was pending already.
func (s *Session) addAsk(key, rule string) bool {
	if s.asked == nil {
		s.asked = make(map[string][]string)
	}
	rs, ok := s.asked[key]
	if !ok {
		s.askOrder = append(s.askOrder, key)
		if len(s.askOrder) > maxPendingAsks {
			delete(s.asked, s.askOrder[0])
			s.askOrder = s.askOrder[1:]
		}
	}
	if slices.Contains(rs, rule) {
		return false
	}
	s.asked[key] = append(rs, rule)
	return true
}

// approve marks fired, at index, the ask rules that asked about the call
// with this id or fingerprint: it ran, so the user approved it.
func (s *Session) approve(id, fp string, index int) {
	if len(s.asked) == 0 {
		return
	}
	keys := []string{askKey("", fp)}
	if id != "" {
		keys = append(keys, askKey(id, fp))
	}
	for _, key := range keys {
		rs, ok := s.asked[key]
		if !ok {
			continue
		}
		for _, r := range rs {
			s.MarkFired(r, index)
		}
		delete(s.asked, key)
		s.askOrder = slices.DeleteFunc(s.askOrder, func(k string) bool { return k == key })
	}
}

// entry is one recorded call and what Record derived from it before cutting
// its strings to MaxHistoryStringBytes. A call read from a saved session is
// kept as its JSON (raw) until an expression looks at it; its arguments are
// decoded first, alone, since most expressions never look at a result.
type entry struct {
	tool        string
	call        Call
	raw         []byte // the call's JSON, until decoded
	rawArgs     []byte // the arguments' JSON within raw, when known
	argsDone    bool
	path        string
	fingerprint string
	id          string
}

// argsAt returns the arguments of the recorded call at index i, decoding
// them on first use.
func (s *Session) argsAt(i int) map[string]any {
	e := &s.calls[i]
	if e.raw != nil && !e.argsDone {
		// The line's checksum matched, so it was written as valid JSON; on
		// a decoding error keep what is certain: no arguments.
		var args map[string]any
		if e.rawArgs != nil {
			_ = json.Unmarshal(e.rawArgs, &args)
		} else {
			var c struct {
				Args map[string]any `json:"args"`
			}
			_ = json.Unmarshal(e.raw, &c)
			args = c.Args
		}
		e.call.Args = boundArgs(args, MaxHistoryStringBytes)
		e.argsDone = true
	}
	return e.call.Args
}

// callAt returns the recorded call at index i, decoding it on first use.
func (s *Session) callAt(i int) Call {
	e := &s.calls[i]
	if e.raw != nil {
		var c struct {
			Result any `json:"result"`
		}
		_ = json.Unmarshal(e.raw, &c)
		args := s.argsAt(i)
		e.call = Call{Tool: e.tool, Args: args, Result: boundValue(c.Result, MaxHistoryStringBytes)}
		e.raw, e.rawArgs = nil, nil
	}
	return e.call
}

// toolStats aggregates the calls of one tool.
type toolStats struct {
	// indices are the session indices of the tool's calls, ascending.
	indices []int
	// paths maps each path the tool worked on to the index of its last call
	// with that path.
	paths map[string]int
}

// memoKey identifies one cached scan of lastMatch.
type memoKey struct {
	tool, field, pattern string
}

// memoEntry is the state of one cached scan: how many of the tool's calls
// have been looked at, and the index of the last that matched (-1: none).
type memoEntry struct {
	scanned int
	last    int
}

// maxMemo bounds the number of cached scans (distinct tool, field, pattern
// triples); past it, lastMatch scans without caching.
const maxMemo = 4096

// Record appends a call that ran to the session. The runtime calls it after
// the call ran, with its result, and after evaluating phase Post; a call
// that was blocked did not run and is not recorded. The session keeps a copy
// of the call, its strings cut to MaxHistoryStringBytes.
func (s *Session) Record(c Call) {
	tool := cutString(c.Tool, MaxHistoryStringBytes)
	args := boundArgs(c.Args, MaxStringBytes)
	// The session keeps copies: the caller may reuse its maps and slices.
	var hargs map[string]any
	if args != nil {
		b := bounder{maxStr: MaxHistoryStringBytes}
		hargs, _ = b.copy(args, 0).(map[string]any)
	}
	b := bounder{maxStr: MaxHistoryStringBytes}
	s.add(Call{
		Tool:   tool,
		Args:   hargs,
		Result: b.copy(c.Result, 0),
		ID:     cutString(c.ID, 256),
	}, callPath(args), fingerprint(tool, args))
}

// add appends a call whose strings are already cut, with its path and
// fingerprint; it answers the asks about it.
func (s *Session) add(c Call, p, fp string) {
	index := len(s.calls)
	if index > 0 && s.calls[index-1].fingerprint == fp {
		s.streak++
	} else {
		s.streak = 1
	}
	s.calls = append(s.calls, entry{tool: c.Tool, call: c, path: p, fingerprint: fp, id: c.ID})
	s.index(c.Tool, p)
	s.approve(c.ID, fp, index)
}

// addRaw appends a call read from a saved session, its JSON (and that of its
// arguments, when known) kept for later.
func (s *Session) addRaw(tool, id string, raw, rawArgs []byte, p, fp string) {
	s.add(Call{Tool: tool, ID: id}, p, fp)
	e := &s.calls[len(s.calls)-1]
	e.raw, e.rawArgs = raw, rawArgs
}

// index files the newest call under its tool's aggregates.
func (s *Session) index(tool, p string) {
	index := len(s.calls) - 1
	if s.tools == nil {
		s.tools = make(map[string]*toolStats)
	}
	ts := s.tools[tool]
	if ts == nil {
		ts = &toolStats{}
		s.tools[tool] = ts
	}
	ts.indices = append(ts.indices, index)
	if p != "" {
		if ts.paths == nil {
			ts.paths = make(map[string]int)
		}
		ts.paths[p] = index
	}
}

// Len returns the number of recorded calls; it is also the index the next
// call will have.
func (s *Session) Len() int {
	if s == nil {
		return 0
	}
	return len(s.calls)
}

// Call returns the recorded call at index i (0 is the oldest), with its
// strings cut to MaxHistoryStringBytes. It returns false when i is out of
// range.
func (s *Session) Call(i int) (Call, bool) {
	if s == nil || i < 0 || i >= len(s.calls) {
		return Call{}, false
	}
	return s.callAt(i), true
}

// LastFired returns the index of the call on which the rule last fired, and
// false when it never fired in this session.
func (s *Session) LastFired(rule string) (int, bool) {
	if s == nil {
		return 0, false
	}
	i, ok := s.fired[rule]
	return i, ok
}

// MarkFired notes that the rule fired on the call at index. Evaluate does
// this itself; a runtime calls it only to restore a saved session.
func (s *Session) MarkFired(rule string, index int) {
	if s.fired == nil {
		s.fired = make(map[string]int)
	}
	s.fired[rule] = index
}

// The aggregates below take the tool names a CEL name stands for (the tool
// itself, or every tool of a family); see Engine.members.

// count returns how many recorded calls have one of the tools.
func (s *Session) count(tools []string) int {
	n := 0
	for _, t := range tools {
		if ts := s.tools[t]; ts != nil {
			n += len(ts.indices)
		}
	}
	return n
}

// last returns the index of the last recorded call of one of the tools, or
// -1.
func (s *Session) last(tools []string) int {
	last := -1
	for _, t := range tools {
		if ts := s.tools[t]; ts != nil {
			last = max(last, ts.indices[len(ts.indices)-1])
		}
	}
	return last
}

// countAfter returns how many recorded calls of the tools have an index
// greater than after.
func (s *Session) countAfter(tools []string, after int) int {
	n := 0
	for _, t := range tools {
		if ts := s.tools[t]; ts != nil {
			k := sort.SearchInts(ts.indices, after+1)
			n += len(ts.indices) - k
		}
	}
	return n
}

// lastPath returns the index of the last recorded call of the tools whose
// path is p, or -1.
func (s *Session) lastPath(tools []string, p string) int {
	last := -1
	if p == "" {
		return last
	}
	for _, t := range tools {
		if ts := s.tools[t]; ts != nil {
			if i, ok := ts.paths[p]; ok {
				last = max(last, i)
			}
		}
	}
	return last
}

// lastMatch returns the index of the last recorded call of the tools whose
// argument field, as a string, matches re (compiled from pattern), or -1.
// Each (tool, field, pattern) scan is cached and resumed where it stopped,
// so a rule that asks on every call costs O(1) per call, amortized.
func (s *Session) lastMatch(tools []string, field, pattern string, re *regexp.Regexp) int {
	last := -1
	for _, t := range tools {
		ts := s.tools[t]
		if ts == nil {
			continue
		}
		key := memoKey{t, field, pattern}
		m := s.memo[key]
		if m == nil {
			m = &memoEntry{last: -1}
			if len(s.memo) < maxMemo {
				if s.memo == nil {
					s.memo = make(map[memoKey]*memoEntry)
				}
				s.memo[key] = m
			}
		}
		for ; m.scanned < len(ts.indices); m.scanned++ {
			i := ts.indices[m.scanned]
			v, ok := lookupField(s.argsAt(i), field)
			if !ok {
				continue
			}
			if str, ok := scalarString(v); ok && re.MatchString(str) {
				m.last = i
			}
		}
		last = max(last, m.last)
	}
	return last
}
