// Package registrytest runs a real OCI registry for tests: Debian's
// docker-registry (the CNCF distribution server) on a loopback port with
// htpasswd authentication, and a loopback proxy in front of it that drops
// the connection during a blob upload.
package registrytest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// User and Password are the registry's one account.
const (
	User     = "charter"
	Password = "s3cret-pw-7f2a"
)

// Registry is a running docker-registry.
type Registry struct {
	// Host is its host:port on 127.0.0.1.
	Host string
	// Storage is its storage root folder.
	Storage string
	dir     string
	cmd     *exec.Cmd
	done    chan struct{}
	mu      sync.Mutex
	log     strings.Builder
}

var listening = regexp.MustCompile(`listening on (127\.0\.0\.1:[0-9]+)`)

// Start runs docker-registry with its storage, configuration and
// password file under dir. The caller must Stop it.
func Start(dir string) (*Registry, error) {
	r := &Registry{dir: dir}
	if err := r.start("127.0.0.1:0"); err != nil {
		return nil, err
	}
	return r, nil
}

// Restart stops the registry and starts it again on the same address,
// with the same storage: what an operator sees when a registry is
// restarted.
func (r *Registry) Restart() error {
	r.Stop()
	return r.start(r.Host)
}

func (r *Registry) start(addr string) error {
	dir := r.dir
	htpasswd, err := exec.Command("htpasswd", "-Bbn", User, Password).Output()
	if err != nil {
		return fmt.Errorf("htpasswd: %v", err)
	}
	storage := filepath.Join(dir, "storage")
	files := map[string]string{
		"htpasswd": string(htpasswd),
		"config.yml": fmt.Sprintf(`version: 0.1
log:
  level: info
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: %s
  delete:
    enabled: true
http:
  addr: %s
  secret: charter-test-secret
auth:
  htpasswd:
    realm: charter-test
    path: %s
`, storage, addr, filepath.Join(dir, "htpasswd")),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			return err
		}
	}
	cmd := exec.Command("docker-registry", "serve", filepath.Join(dir, "config.yml"))
	cmd.Env = append(os.Environ(), "OTEL_TRACES_EXPORTER=none")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	r.mu.Lock()
	r.Storage, r.cmd, r.done = storage, cmd, done
	r.mu.Unlock()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.log.WriteString(line + "\n")
			r.mu.Unlock()
			if m := listening.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	go func() { cmd.Wait(); close(done) }()
	select {
	case r.Host = <-found:
	case <-done:
		return fmt.Errorf("docker-registry exited at start:\n%s", r.Log())
	case <-time.After(20 * time.Second):
		r.Stop()
		return fmt.Errorf("docker-registry did not say where it listens within 20s:\n%s", r.Log())
	}
	// Ready when /v2/ answers (401: it wants credentials).
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + r.Host + "/v2/")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i > 200 {
			r.Stop()
			return fmt.Errorf("docker-registry does not answer on %s: %v", r.Host, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Log returns what the registry printed.
func (r *Registry) Log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.log.String()
}

// Stop ends the registry (SIGTERM, then SIGKILL after 5s) and waits for it.
func (r *Registry) Stop() {
	r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		r.cmd.Process.Kill()
		<-r.done
	}
}

// BlobPath returns the file that holds the blob of digest (sha256:HEX) in
// the registry's storage.
func (r *Registry) BlobPath(digest string) (string, error) {
	hex, ok := strings.CutPrefix(digest, "sha256:")
	if !ok || len(hex) != 64 {
		return "", fmt.Errorf("%q is not a sha256 digest", digest)
	}
	return filepath.Join(r.Storage, "docker", "registry", "v2", "blobs", "sha256", hex[:2], hex, "data"), nil
}

// Tamper flips one byte in the middle of the stored blob of digest. The
// registry does not check digests when it serves a blob, so it serves the
// changed bytes under the old digest.
func (r *Registry) Tamper(digest string) error {
	p, err := r.BlobPath(digest)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return errors.New("empty blob")
	}
	b[len(b)/2] ^= 0xff
	return os.WriteFile(p, b, 0o644)
}

// Proxy is a loopback HTTP proxy to a registry that drops the connection
// in the middle of every blob upload's body and every blob download's.
type Proxy struct {
	// Host is its host:port on 127.0.0.1.
	Host string
	srv  *http.Server
}

// StartDropProxy starts a Proxy in front of the registry at target
// (host:port).
func StartDropProxy(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: target})
	rp.ErrorLog = log.New(io.Discard, "", 0)
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method == http.MethodGet && strings.Contains(resp.Request.URL.Path, "/blobs/sha256:") && resp.ContentLength > 1 {
			// The status and headers go out, then half the body, then
			// the proxy aborts the connection.
			resp.Body = &failAfter{r: resp.Body, n: resp.ContentLength / 2}
		}
		return nil
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		upload := strings.Contains(req.URL.Path, "/blobs/uploads/") && (req.Method == http.MethodPut || req.Method == http.MethodPatch) && req.ContentLength != 0
		if !upload {
			rp.ServeHTTP(w, req)
			return
		}
		// Read part of the body, then cut the connection.
		io.CopyN(io.Discard, req.Body, 16)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	p := &Proxy{Host: ln.Addr().String(), srv: &http.Server{Handler: h}}
	go p.srv.Serve(ln)
	return p, nil
}

// Stop closes the proxy.
func (p *Proxy) Stop() { p.srv.Close() }

// failAfter reads n bytes from r, then fails.
type failAfter struct {
	r io.ReadCloser
	n int64
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("connection dropped by the test proxy")
	}
	if int64(len(p)) > f.n {
		p = p[:f.n]
	}
	n, err := f.r.Read(p)
	f.n -= int64(n)
	return n, err
}

func (f *failAfter) Close() error { return f.r.Close() }
