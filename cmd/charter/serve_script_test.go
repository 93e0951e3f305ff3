package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptServe starts `charter serve ARGS...` in the background, in the
// script's folder, on a free loopback port, and waits until it listens:
// $SERVE_URL is its URL. `serve signal HUP|TERM|KILL` signals it (KILL
// waits for it to end); the server is stopped when the script ends. What
// it wrote on stderr so far is in the file serve.log.
func scriptServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: serve ARGS... | serve signal HUP|TERM|KILL")
	}
	if args[0] == "signal" {
		p := getServer(ts)
		if p == nil {
			ts.Fatalf("no server started")
		}
		sig := map[string]syscall.Signal{"HUP": syscall.SIGHUP, "TERM": syscall.SIGTERM, "KILL": syscall.SIGKILL}[args[1]]
		if sig == syscall.SIGHUP {
			// Wait for the line the reload logs.
			for len(p.lines) > 0 {
				<-p.lines
			}
			ts.Check(p.cmd.Process.Signal(sig))
			select {
			case <-p.lines:
			case <-time.After(10 * time.Second):
				ts.Fatalf("charter serve logged nothing within 10 s of SIGHUP")
			}
			return
		}
		ts.Check(p.cmd.Process.Signal(sig))
		{
			p.cmd.Wait()
			<-p.done
			setServer(ts, nil)
		}
		return
	}
	cmd := exec.Command("charter", append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = ts.MkAbs(".")
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "DOCKER_CONFIG"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	log, err := os.Create(ts.MkAbs("serve.log"))
	ts.Check(err)
	url := make(chan string, 1)
	done := make(chan struct{})
	lines := make(chan string, 1024)
	go func() {
		defer close(done)
		defer log.Close()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			log.Sync()
			select {
			case lines <- line:
			default:
			}
			if u, ok := strings.CutPrefix(line, "charter serve: listening on "); ok {
				url <- u
			}
		}
		close(url)
	}()
	select {
	case u, ok := <-url:
		if !ok {
			cmd.Wait()
			b, _ := os.ReadFile(ts.MkAbs("serve.log"))
			ts.Fatalf("charter serve ended: %s", b)
		}
		ts.Setenv("SERVE_URL", u)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		ts.Fatalf("charter serve did not listen within 30 s")
	}
	p := &served{cmd: cmd, done: done, lines: lines}
	setServer(ts, p)
	ts.Defer(func() {
		if getServer(ts) == p {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
			setServer(ts, nil)
		}
	})
}

type served struct {
	cmd   *exec.Cmd
	done  chan struct{}
	lines chan string
}

// servers are the scripts' servers (a script runs one at a time).
var (
	serversMu sync.Mutex
	servers   = map[*testscript.TestScript]*served{}
)

func getServer(ts *testscript.TestScript) *served {
	serversMu.Lock()
	defer serversMu.Unlock()
	return servers[ts]
}

func setServer(ts *testscript.TestScript, p *served) {
	serversMu.Lock()
	defer serversMu.Unlock()
	if p == nil {
		delete(servers, ts)
	} else {
		servers[ts] = p
	}
}

// scriptHTTP runs `http METHOD URL [BODYFILE]`: the response body on
// stdout, "status N" on stderr; `! http` expects a status other than 2xx.
func scriptHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: http METHOD URL [BODYFILE]")
	}
	var body io.Reader
	if len(args) > 2 {
		body = strings.NewReader(ts.ReadFile(args[2]))
	}
	req, err := http.NewRequest(args[0], args[1], body)
	ts.Check(err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	ts.Stdout().Write(b)
	ts.Stderr().Write([]byte("status " + resp.Status + "\n"))
	ok := resp.StatusCode/100 == 2
	if ok == neg {
		ts.Fatalf("status %s", resp.Status)
	}
}
