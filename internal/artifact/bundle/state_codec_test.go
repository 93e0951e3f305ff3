package bundle

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleState() *State {
	return &State{
		Stats: true, Coarse: false, Dev: 2049, Ino: 1 << 40, At: 1_795_000_000_123_456_789,
		Files: map[string]FileState{
			"manifest.json":          {SHA256: "ab12", Size: 12, Stat: Stat{Ino: 7, Size: 12, Mode: 0o100644, Uid: 1000, Mtime: 1, Ctime: -2}},
			"agents/ann/prompt.md":   {SHA256: "", Size: 0, Stat: Stat{}},
			"agents/ann/agent.json ": {SHA256: "ff", Size: 1 << 33, Stat: Stat{Ino: ^uint64(0), Size: -1, Mode: ^uint32(0), Uid: ^uint32(0), Mtime: -1 << 63, Ctime: 1<<63 - 1}},
		},
		Dirs: map[string]Stat{".": {Ino: 1}, "agents": {Ino: 2, Mode: 0o40755}},
	}
}

func TestStateBinaryRoundTrip(t *testing.T) {
	for _, s := range []*State{sampleState(), {Files: map[string]FileState{}, Dirs: map[string]Stat{}}} {
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got State
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s, &got); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
		// Every shorter prefix, and the whole with a byte more, is refused.
		for i := range len(b) {
			if err := new(State).UnmarshalBinary(b[:i]); !errors.Is(err, errStateForm) {
				t.Fatalf("the first %d of %d bytes decoded: %v", i, len(b), err)
			}
		}
		if err := new(State).UnmarshalBinary(append(b, 0)); !errors.Is(err, errStateForm) {
			t.Errorf("a byte left over decoded: %v", err)
		}
	}
}

// FuzzStateUnmarshal: no bytes make UnmarshalBinary panic or allocate
// without bound, and what it accepts encodes back to the same State.
func FuzzStateUnmarshal(f *testing.F) {
	b, _ := sampleState().MarshalBinary()
	f.Add(b)
	f.Add([]byte(stateMagic + "\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s State
		if err := s.UnmarshalBinary(data); err != nil {
			return
		}
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var again State
		if err := again.UnmarshalBinary(b); err != nil {
			t.Fatalf("re-encoded State does not decode: %v", err)
		}
		if diff := cmp.Diff(&s, &again); diff != "" {
			t.Errorf("(-first +again):\n%s", diff)
		}
	})
}
