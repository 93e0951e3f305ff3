package sessions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/charter-dev/charter/rules"
)

// Redis keeps sessions in a Redis server, so that replicas of charter
// serve share them: a session is a hash (its saved form and a version)
// under charter:sess:{ID}:AGENT, written only when the version it was
// read at is still the latest (compare and set, one Lua script), so an
// update that lost a race to another replica is made again on the new
// state. Within one process the updates of a key also take turns.
type Redis struct {
	c       *redis.Client
	limits  Limits
	timeout time.Duration
	locks   [256]sync.Mutex
	seed    maphash.Seed
}

// OpenRedis connects to the Redis server url names (redis://, rediss://
// or unix://), set to fail fast: a server that cannot be reached fails
// the call within timeout, never after minutes of retries.
func OpenRedis(url string, l Limits, timeout time.Duration) (*Redis, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("--sessions %s: %v", url, err)
	}
	if l.MaxCalls <= 0 {
		l.MaxCalls = DefaultLimits.MaxCalls
	}
	if l.Idle <= 0 {
		l.Idle = DefaultLimits.Idle
	}
	if timeout <= 0 {
		timeout = time.Second
	}
	opt.DialTimeout = timeout / 2
	opt.ReadTimeout = timeout
	opt.WriteTimeout = timeout
	opt.DialerRetries = 1
	opt.MaxRetries = -1
	opt.ContextTimeoutEnabled = true
	r := &Redis{c: redis.NewClient(opt), limits: l, timeout: timeout, seed: maphash.MakeSeed()}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := r.c.Ping(ctx).Err(); err != nil {
		r.c.Close()
		return nil, fmt.Errorf("the session store (Redis at %s) cannot be reached: %v", opt.Addr, err)
	}
	if err := r.checkEviction(ctx); err != nil {
		r.c.Close()
		return nil, err
	}
	return r, nil
}

// checkEviction refuses a Redis that evicts keys under memory pressure:
// a session it drops is gone unseen, and its next call is judged from
// nothing, so whoever can open many sessions could reset the others'
// history. A Redis that does not answer CONFIG (a managed one may not)
// is taken as it is.
func (r *Redis) checkEviction(ctx context.Context) error {
	cfg, err := r.c.ConfigGet(ctx, "maxmemory-policy").Result()
	if err != nil {
		return nil
	}
	if p, ok := cfg["maxmemory-policy"]; ok && p != "noeviction" {
		return fmt.Errorf("the session store (Redis) evicts keys under memory pressure (maxmemory-policy %s), and a session it evicts would start again empty, resetting the rules that look back: set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, or in redis.conf), or give charter a Redis of its own", p)
	}
	return nil
}

func init() {
	// go-redis logs to stderr on its own; charter says what failed.
	redis.SetLogger(quiet{})
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

func redisKey(key string) string {
	id, agent, _ := bytes.Cut([]byte(key), []byte{0})
	return "charter:sess:{" + string(id) + "}:" + string(agent)
}

func agentsKey(session string) string { return "charter:sess:{" + session + "}" }

// casScript writes a session if its version is still ARGV[1].
// KEYS: the session's hash, its session's set of keys. ARGV: version,
// data, ttl seconds.
var casScript = redis.NewScript(`
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'd', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], KEYS[1])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return v + 1
`)

// maxRaces bounds how often an update is made again after another
// replica wrote the session first.
const maxRaces = 64

func (r *Redis) read(ctx context.Context, k string) (*rules.Session, int64, *rules.CorruptLinesError, error) {
	vals, err := r.c.HMGet(ctx, k, "v", "d").Result()
	if err != nil {
		return nil, 0, nil, r.unreachable(err)
	}
	var version int64
	if s, ok := vals[0].(string); ok {
		version, _ = strconv.ParseInt(s, 10, 64)
	}
	data, _ := vals[1].(string)
	s, err := rules.ReadSession(bytes.NewReader([]byte(data)))
	var ce *rules.CorruptLinesError
	if errors.As(err, &ce) {
		return s, version, ce, nil
	}
	if err != nil {
		return nil, 0, nil, fmt.Errorf("the session in Redis does not read: %v", err)
	}
	return s, version, nil, nil
}

func (r *Redis) unreachable(err error) error {
	return fmt.Errorf("the session store (Redis) cannot be reached: %v", err)
}

// Update implements Store.
func (r *Redis) Update(key string, fn func(s *rules.Session) error) (*rules.CorruptLinesError, error) {
	mu := &r.locks[maphash.String(r.seed, key)%uint64(len(r.locks))]
	mu.Lock()
	defer mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	k := redisKey(key)
	ttl := strconv.Itoa(max(1, int(r.limits.Idle/time.Second)))
	for range maxRaces {
		s, version, repaired, err := r.read(ctx, k)
		if err != nil {
			return nil, err
		}
		if n := s.Len(); n >= r.limits.MaxCalls {
			return repaired, &FullError{Calls: n}
		}
		if err := fn(s); err != nil {
			return repaired, err
		}
		var b bytes.Buffer
		if err := s.WriteJSONL(&b); err != nil {
			return repaired, err
		}
		got, err := casScript.Run(ctx, r.c, []string{k, agentsKey(sessionOf(key))}, version, b.String(), ttl).Int64()
		if err != nil {
			return repaired, r.unreachable(err)
		}
		if got >= 0 {
			return repaired, nil
		}
	}
	return nil, fmt.Errorf("the session changed under charter %d times in a row (other replicas); the call is not judged", maxRaces)
}

// View implements Store.
func (r *Redis) View(key string) (*rules.Session, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	s, _, _, err := r.read(ctx, redisKey(key))
	return s, err
}

// Remove implements Store.
func (r *Redis) Remove(session string) error {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	keys, err := r.c.SMembers(ctx, agentsKey(session)).Result()
	if err != nil {
		return r.unreachable(err)
	}
	keys = append(keys, agentsKey(session))
	if err := r.c.Del(ctx, keys...).Err(); err != nil {
		return r.unreachable(err)
	}
	return nil
}

// Prune implements Store: Redis expires idle sessions itself.
func (r *Redis) Prune(time.Duration) (int, error) { return 0, nil }

// Ping says whether Redis answers: nil, or why it cannot be reached.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.c.Ping(ctx).Err(); err != nil {
		return r.unreachable(err)
	}
	return nil
}

// Count implements Store: unknown.
func (r *Redis) Count() int { return -1 }

// Close implements Store.
func (r *Redis) Close() error { return r.c.Close() }
