package web

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
)

// Config is where and how the page is served.
type Config struct {
	// Listen is the address, "127.0.0.1:7878" by default.
	Listen string
	// CertFile and KeyFile, both set, serve over TLS.
	CertFile, KeyFile string
	// PlaintextBeyondLoopback allows listening on an address other
	// machines reach without TLS: the device cookie and every answer
	// cross the network readable.
	PlaintextBeyondLoopback bool
	// URL is the page's address as a phone opens it ("https://box.tailnet
	// .ts.net"), when it is not the listening address (behind `tailscale
	// serve` or an ssh tunnel); the pairing link and the away push use it.
	URL string
}

// DefaultListen is the page's address unless told otherwise.
const DefaultListen = "127.0.0.1:7878"

// ErrPlaintext is Check's error for an address beyond the loopback with
// no TLS and no flag allowing it.
var ErrPlaintext = errors.New("serving beyond the loopback without TLS")

// TLS says whether the page is served over TLS.
func (c Config) TLS() bool { return c.CertFile != "" && c.KeyFile != "" }

// Check refuses what would expose the page: a listening address other
// machines reach, without TLS, unless explicitly allowed; half a TLS pair.
func (c Config) Check() error {
	if (c.CertFile == "") != (c.KeyFile == "") {
		return errors.New("TLS needs both a certificate and its key")
	}
	host, _, err := net.SplitHostPort(c.listen())
	if err != nil {
		return fmt.Errorf("listen address %q: %w", c.listen(), err)
	}
	if c.TLS() || c.PlaintextBeyondLoopback || loopback(host) {
		return nil
	}
	return fmt.Errorf("%w: %s is reachable from other machines", ErrPlaintext, c.listen())
}

func (c Config) listen() string {
	if c.Listen == "" {
		return DefaultListen
	}
	return c.Listen
}

// loopback says whether host names only this machine: a loopback address
// or "localhost". An empty host (all interfaces) is not.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// listener opens the address, TLS when configured, accepting at most
// maxConns connections at once: a thousand slow clients wait in the
// kernel's backlog rather than each holding a goroutine and its buffers.
func (c Config) listener(ctx context.Context, maxConns int) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", c.listen())
	if err != nil {
		return nil, err
	}
	ln = &limitListener{Listener: ln, slots: make(chan struct{}, maxConns)}
	if !c.TLS() {
		return ln, nil
	}
	cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("loading the TLS certificate: %w", err)
	}
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}), nil
}

// limitListener accepts a connection only while fewer than cap(slots) are
// open.
type limitListener struct {
	net.Listener
	slots chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &slotConn{Conn: c, release: func() { <-l.slots }}, nil
}

type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
