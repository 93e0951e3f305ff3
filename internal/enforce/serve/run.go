package serve

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Listen says where and how a server listens.
type Listen struct {
	// Addr is host:port; DefaultAddr unless set.
	Addr string
	// TLSCert and TLSKey serve HTTPS; ClientCA, with them, requires every
	// client to show a certificate it signed.
	TLSCert, TLSKey, ClientCA string
	// Poll is how often the bundle directory is checked for a new bundle
	// (0: only on SIGHUP).
	Poll time.Duration
	// Grace is how long a shutdown waits for requests under way.
	Grace time.Duration
}

// DefaultAddr is where a server listens unless told: loopback only.
const DefaultAddr = "127.0.0.1:8181"

// ExposedError is an address off this machine without a way to tell
// callers apart.
type ExposedError struct{ Addr string }

func (e *ExposedError) Error() string {
	return fmt.Sprintf("%s is not a loopback address, and anyone who reaches it could ask for decisions: give --token-file (a bearer token) or --tls-client-ca (client certificates)", e.Addr)
}

// CheckExposure refuses an address off loopback unless callers must
// authenticate (a token, or client certificates).
func CheckExposure(addr string, token bool, clientCA bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if token || clientCA {
		return nil
	}
	return &ExposedError{Addr: addr}
}

// Run serves until ctx ends or the process gets SIGINT or SIGTERM, then
// shuts down gracefully; SIGHUP reloads the bundle. ready is told the
// address it listens on.
func (s *Server) Run(ctx context.Context, l Listen, ready func(url string)) error {
	if l.Addr == "" {
		l.Addr = DefaultAddr
	}
	if l.Grace <= 0 {
		l.Grace = 10 * time.Second
	}
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          nil,
	}
	scheme := "http"
	if l.TLSCert != "" || l.TLSKey != "" {
		if l.TLSCert == "" || l.TLSKey == "" {
			return errors.New("give both --tls-cert and --tls-key")
		}
		cert, err := tls.LoadX509KeyPair(l.TLSCert, l.TLSKey)
		if err != nil {
			return fmt.Errorf("--tls-cert/--tls-key: %v", err)
		}
		hs.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		if l.ClientCA != "" {
			pem, err := os.ReadFile(l.ClientCA)
			if err != nil {
				return fmt.Errorf("--tls-client-ca: %v", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return fmt.Errorf("--tls-client-ca %s holds no PEM certificate", l.ClientCA)
			}
			hs.TLSConfig.ClientCAs = pool
			hs.TLSConfig.ClientAuth = tls.RequireAndVerifyClientCert
		}
		scheme = "https"
	} else if l.ClientCA != "" {
		return errors.New("--tls-client-ca needs --tls-cert and --tls-key: client certificates are asked for over TLS")
	}
	ln, err := net.Listen("tcp", l.Addr)
	if err != nil {
		return err
	}
	if hs.TLSConfig != nil {
		ln = tls.NewListener(ln, hs.TLSConfig)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				_ = s.reload(ctx, true)
			}
		}
	}()
	go s.Watch(ctx, l.Poll)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	if ready != nil {
		ready(scheme + "://" + ln.Addr().String())
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), l.Grace)
	defer cancel()
	err = hs.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("requests still under way after %v were cut off", l.Grace)
	}
	return err
}
