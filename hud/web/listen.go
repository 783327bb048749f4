package web

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
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

// listener opens the address, TLS when configured, serving at most
// maxConns connections at once: past that, a new connection takes the
// place of the one that has waited longest without a request (see
// limitListener), so a thousand slow clients hold neither a goroutine
// each nor the page from a browser that asks at once.
func (c Config) listener(ctx context.Context, maxConns int) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", c.listen())
	if err != nil {
		return nil, err
	}
	ln = newLimitListener(ln, maxConns)
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

// limitListener keeps at most max connections open. When all are taken,
// Accept closes the one that has waited longest for a request (connected
// and silent, halfway through its headers or its TLS handshake, or idle
// between requests) to serve the new one: a client that stalls cannot
// keep out one that asks at once, as it would if the new connection
// waited in the kernel's backlog behind every stalled one. Only when
// every connection is serving a request does Accept wait. The server
// says which are (trackConn, its ConnState).
type limitListener struct {
	net.Listener
	max  int
	wake chan struct{} // a connection closed or went idle
	done chan struct{} // closed by Close
	shut sync.Once

	mu   sync.Mutex
	open map[*slotConn]struct{}
	seq  uint64
}

func newLimitListener(ln net.Listener, max int) *limitListener {
	return &limitListener{Listener: ln, max: max, wake: make(chan struct{}, 1), done: make(chan struct{}),
		open: map[*slotConn]struct{}{}}
}

func (l *limitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc := &slotConn{Conn: c, l: l}
	if err := l.makeRoom(sc); err != nil {
		c.Close()
		return nil, err
	}
	return sc, nil
}

// makeRoom adds sc to the open connections once there is room for it,
// closing the one that waited longest for a request to make it.
func (l *limitListener) makeRoom(sc *slotConn) error {
	for {
		l.mu.Lock()
		if len(l.open) < l.max {
			l.seq++
			sc.since = l.seq
			l.open[sc] = struct{}{}
			l.mu.Unlock()
			return nil
		}
		victim := l.longestWaiting()
		l.mu.Unlock()
		if victim != nil {
			victim.Close()
			continue
		}
		select {
		case <-l.wake:
		case <-l.done:
			return net.ErrClosed
		}
	}
}

// longestWaiting is the open connection that has waited longest for a
// request, nil when every one is serving one. l.mu is held.
func (l *limitListener) longestWaiting() *slotConn {
	var oldest *slotConn
	for c := range l.open {
		if !c.busy && (oldest == nil || c.since < oldest.since) {
			oldest = c
		}
	}
	return oldest
}

func (l *limitListener) Close() error {
	l.shut.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// setBusy says whether c is serving a request.
func (l *limitListener) setBusy(c *slotConn, busy bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.open[c]; !ok || c.busy == busy {
		return
	}
	c.busy = busy
	if !busy {
		l.seq++
		c.since = l.seq
		l.signal()
	}
}

func (l *limitListener) closed(c *slotConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.open, c)
	l.signal()
}

// signal wakes an Accept waiting for room. l.mu is held.
func (l *limitListener) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// trackConn is the server's ConnState: it tells each connection's
// limitListener whether the connection is serving a request.
func trackConn(c net.Conn, state http.ConnState) {
	for {
		switch v := c.(type) {
		case *slotConn:
			v.l.setBusy(v, state == http.StateActive || state == http.StateHijacked)
			return
		case interface{ NetConn() net.Conn }: // *tls.Conn
			c = v.NetConn()
		default:
			return
		}
	}
}

type slotConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
	// busy and since are guarded by l.mu: whether the connection serves a
	// request, and when it last began to wait for one.
	busy  bool
	since uint64
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.closed(c) })
	return err
}
