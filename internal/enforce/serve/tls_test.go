package serve

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cert makes a certificate signed by parent (self-signed when nil).
func cert(t *testing.T, name string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, ca bool) (*x509.Certificate, *ecdsa.PrivateKey, []byte, []byte) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: ca, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	kb, _ := x509.MarshalECPrivateKey(key)
	return c, key, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

// With --tls-client-ca, a client without a certificate the CA signed gets
// no answer; one with it gets decisions.
func TestClientCertificates(t *testing.T) {
	dir := t.TempDir()
	ca, caKey, caPEM, _ := cert(t, "ca", nil, nil, true)
	_, _, srvPEM, srvKey := cert(t, "server", ca, caKey, false)
	_, _, cliPEM, cliKey := cert(t, "client", ca, caKey, false)
	for name, b := range map[string][]byte{"ca.pem": caPEM, "srv.pem": srvPEM, "srv.key": srvKey} {
		os.WriteFile(filepath.Join(dir, name), b, 0o600)
	}
	s := New(context.Background(), Options{Bundle: golden})
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- s.Run(ctx, Listen{Addr: "127.0.0.1:0", TLSCert: filepath.Join(dir, "srv.pem"), TLSKey: filepath.Join(dir, "srv.key"),
			ClientCA: filepath.Join(dir, "ca.pem")}, func(u string) { urls <- u })
	}()
	url := <-urls
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	body := `{"agent":"marco","session":"s","phase":"pre","tool":"read_file","input":{"path":"a"}}`
	anon := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	if resp, err := anon.Post(url+"/v1/decide", "application/json", stringsReader(body)); err == nil {
		resp.Body.Close()
		t.Errorf("a client without a certificate got %d", resp.StatusCode)
	}
	pair, err := tls.X509KeyPair(cliPEM, cliKey)
	if err != nil {
		t.Fatal(err)
	}
	known := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{pair}}}}
	resp, err := known.Post(url+"/v1/decide", "application/json", stringsReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a client with a certificate got %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}
