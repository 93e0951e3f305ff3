// Package redistest starts a throwaway redis-server for a test: no TCP,
// no files, a unix socket in a temporary directory, stopped when the test
// ends.
package redistest

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// Server is a running redis-server.
type Server struct {
	// Socket is the unix socket it listens on; URL is unix://Socket.
	Socket, URL string
	cmd         *exec.Cmd
}

// Start starts a redis-server (skipped when there is none, failed under
// CI) and waits until it answers PING.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := realtool.Need(t, "redis-server", "redis-server")
	// A unix socket path must be under 108 bytes: not under t.TempDir's
	// long names.
	dir, err := os.MkdirTemp("", "rds")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700",
		"--save", "", "--appendonly", "no", "--dir", dir, "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{Socket: sock, URL: "unix://" + sock, cmd: cmd}
	t.Cleanup(s.Stop)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("unix", sock); err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			c.Write([]byte("PING\r\n"))
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if line == "+PONG\r\n" {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("redis-server did not answer within 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Stop stops the server (kill -9: what a crash looks like).
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}
