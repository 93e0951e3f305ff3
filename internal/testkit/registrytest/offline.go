package registrytest

import (
	"context"
	"net"
	"net/http"
	"strings"

	"oras.land/oras-go/v2/registry/remote/retry"
)

// Resolver answers a host name lookup for OfflineClient: the address of
// name, or the *net.DNSError a real resolver would return.
type Resolver func(name string) (string, error)

// NoDNS knows localhost and nothing else: every other name is unknown,
// as a resolver that finds nothing says.
func NoDNS(name string) (string, error) {
	if strings.EqualFold(name, "localhost") {
		return "127.0.0.1", nil
	}
	return "", &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// OfflineClient is the HTTP client of publish and pull (with oras's
// retries) whose dialer asks resolve, never DNS, for a name that is not
// an IP address: tests that name an unknown host need no network.
func OfflineClient(resolve Resolver) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if net.ParseIP(host) == nil {
			ip, err := resolve(host)
			if err != nil {
				return nil, &net.OpError{Op: "dial", Net: network, Err: err}
			}
			addr = net.JoinHostPort(ip, port)
		}
		return d.DialContext(ctx, network, addr)
	}
	tr.Proxy = nil
	return &http.Client{Transport: retry.NewTransport(tr)}
}
