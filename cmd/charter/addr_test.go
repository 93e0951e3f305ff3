package main

import (
	"bytes"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAddressInUse: serve on an address another program holds exits 2
// and says what to do (stop it, or another --addr), not only the
// system call's "bind: address already in use".
func TestAddressInUse(t *testing.T) {
	dir := starterRepo(t, false)
	dist := filepath.Join(t.TempDir(), "dist")
	var out bytes.Buffer
	if code := run([]string{"-C", dir, "build", "--out", dist}, &out, &out); code != 0 {
		t.Fatalf("build: exit %d: %s", code, out.String())
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := l.Addr().String()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run([]string{"serve", "--bundle", dist, "--addr", addr, "--poll", "0"}, &stdout, &stderr)
		done <- result{code, stderr.String()}
	}()
	select {
	case r := <-done:
		if r.code != exitError {
			t.Errorf("exit %d, want 2; stderr:\n%s", r.code, r.stderr)
		}
		want := "hint: another program listens on " + addr + " (another charter serve?): stop it, or pass --addr HOST:PORT with a free port\n"
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr:\n%s\nwant the line %q", r.stderr, want)
		}
		// It never served: it must not say it did.
		if strings.Contains(r.stderr, "serving the bundle") {
			t.Errorf("stderr:\n%s\nsays it serves the bundle, though it could not listen", r.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s on an address in use")
	}
}
