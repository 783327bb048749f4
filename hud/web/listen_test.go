package web

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestConfigCheck(t *testing.T) {
	const cert, key = "cert.pem", "key.pem"
	beyond := []string{"0.0.0.0:7878", ":7878", "192.168.1.5:80", "[::]:1", "localhost.evil.example:1"}
	loop := []string{"", "127.0.0.1:1", "127.0.0.2:1", "[::1]:1", "localhost:1", "LOCALHOST:1"}
	type tc struct {
		cfg  Config
		ok   bool
		want error // when not ok and set, the error wraps it
	}
	var cases []tc
	for _, l := range beyond {
		cases = append(cases,
			tc{Config{Listen: l}, false, ErrPlaintext},
			tc{Config{Listen: l, PlaintextBeyondLoopback: true}, true, nil},
			tc{Config{Listen: l, CertFile: cert, KeyFile: key}, true, nil},
			tc{Config{Listen: l, CertFile: cert}, false, nil})
	}
	for _, l := range loop {
		cases = append(cases,
			tc{Config{Listen: l}, true, nil},
			tc{Config{Listen: l, CertFile: cert}, false, nil},
			tc{Config{Listen: l, KeyFile: key, PlaintextBeyondLoopback: true}, false, nil})
	}
	cases = append(cases, tc{Config{Listen: "no port"}, false, nil})
	for _, c := range cases {
		err := c.cfg.Check()
		switch {
		case c.ok && err != nil:
			t.Errorf("%+v: %v, want allowed", c.cfg, err)
		case !c.ok && err == nil:
			t.Errorf("%+v: allowed, want refused", c.cfg)
		case !c.ok && c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%+v: %v, want %v", c.cfg, err, c.want)
		}
		if _, err := New(c.cfg, t.TempDir(), newFakeActions(), t.Logf); (err == nil) != c.ok {
			t.Errorf("New(%+v): %v, want allowed %v", c.cfg, err, c.ok)
		}
	}
}

// listen is a limitListener of max connections on the loopback, accepting
// into the returned channel until closed.
func listen(t *testing.T, max int) (*limitListener, <-chan net.Conn) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newLimitListener(inner, max)
	t.Cleanup(func() { l.Close() })
	accepted := make(chan net.Conn)
	go func() {
		defer close(accepted)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	return l, accepted
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func next(t *testing.T, accepted <-chan net.Conn) net.Conn {
	t.Helper()
	select {
	case c := <-accepted:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no connection accepted")
	}
	return nil
}

// dropped says whether the server closed c within d.
func dropped(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout()
}

func TestLimitListenerMakesRoom(t *testing.T) {
	l, accepted := listen(t, 2)
	addr := l.Addr().String()
	c1 := dial(t, addr)
	next(t, accepted)
	c2 := dial(t, addr)
	s2 := next(t, accepted)
	trackConn(s2, http.StateActive) // serving a request: kept
	c3 := dial(t, addr)
	s3 := next(t, accepted)
	if !dropped(c1, 2*time.Second) {
		t.Fatal("the silent connection was kept when a new one came")
	}
	if dropped(c2, 100*time.Millisecond) {
		t.Fatal("a connection serving a request was closed")
	}
	trackConn(tls.Server(s3, &tls.Config{}), http.StateActive) // as the server sees it over TLS
	dial(t, addr)
	select {
	case <-accepted:
		t.Fatal("a connection past the cap while all serve requests")
	case <-time.After(200 * time.Millisecond):
	}
	trackConn(s2, http.StateIdle)
	s4 := next(t, accepted)
	if !dropped(c2, 2*time.Second) {
		t.Fatal("the idle connection was kept past the cap")
	}
	if dropped(c3, 100*time.Millisecond) {
		t.Fatal("a connection serving a request was closed")
	}
	trackConn(s4, http.StateActive)
	dial(t, addr) // waits for room
	time.Sleep(50 * time.Millisecond)
	l.Close()
	select {
	case _, ok := <-accepted:
		if ok {
			t.Fatal("accepted past the cap")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Accept waiting for room outlived Close")
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key to dir.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, roots *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hud test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	return certFile, keyFile, roots
}

func TestCookieOverTLS(t *testing.T) {
	certFile, keyFile, roots := selfSigned(t, t.TempDir())
	s := newServer(t, Config{Listen: "127.0.0.1:0", CertFile: certFile, KeyFile: keyFile}, newFakeActions())
	addr := serveOn(t, s)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}, Timeout: 5 * time.Second}
	secret, err := s.devices.NewPairing()
	if err != nil {
		t.Fatal(err)
	}
	res, err := hc.PostForm("https://"+addr+"/pair", url.Values{"secret": {secret}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || len(res.Cookies()) != 1 {
		t.Fatalf("POST /pair over TLS: %s, cookies %v", res.Status, res.Cookies())
	}
	c := res.Cookies()[0]
	checkCookie(t, c, "__Host-hud", true)
	req, _ := http.NewRequest(http.MethodGet, "https://"+addr+"/", nil)
	req.AddCookie(c)
	if res, err = hc.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET / over TLS with the cookie: %s", res.Status)
	}
}

func TestCookieWithoutTLS(t *testing.T) {
	for _, c := range []struct {
		cfg    Config
		name   string
		secure bool
	}{
		{Config{}, "hud", false},
		{Config{Listen: "0.0.0.0:7878", PlaintextBeyondLoopback: true}, "hud", false},
		{Config{URL: "https://box.example.ts.net"}, "__Host-hud", true}, // behind tailscale serve
	} {
		cl := paired(t, newServer(t, c.cfg, newFakeActions()))
		checkCookie(t, cl.cookie, c.name, c.secure)
	}
}

func checkCookie(t *testing.T, c *http.Cookie, name string, secure bool) {
	t.Helper()
	if c.Name != name || c.Secure != secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Domain != "" {
		t.Errorf("cookie %s: want %s, Secure %v, HttpOnly, SameSite=Strict, Path=/, no Domain", c, name, secure)
	}
	if len(c.Value) < 40 {
		t.Errorf("cookie value %q: want 256 random bits", c.Value)
	}
}

// TestSlowClients: a thousand connections stalled halfway through a
// request line neither hold a goroutine each nor keep a paired browser
// out, and are dropped after headerTimeout.
func TestSlowClients(t *testing.T) {
	const n = 1000
	raiseFileLimit(t, 2*n+maxConns+200)
	s := newServer(t, Config{Listen: "127.0.0.1:0"}, newFakeActions())
	cl := paired(t, s)
	defer func(d time.Duration) { headerTimeout = d }(headerTimeout)
	headerTimeout = 2 * time.Second
	addr := serveOn(t, s)
	before := goroutines()
	start := time.Now()
	conns := make([]net.Conn, 0, n)
	for range n {
		c := dial(t, addr)
		c.Write([]byte("GET / HT")) // evicted already, perhaps: no matter
		conns = append(conns, c)
	}
	t.Logf("%d connections stalled in %v", n, time.Since(start))
	asked := time.Now()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	req.AddCookie(cl.cookie)
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("GET / beside %d slow clients: %v", n, err)
	}
	res.Body.Close()
	took := time.Since(asked)
	if res.StatusCode != http.StatusOK || took > headerTimeout/2 {
		t.Errorf("GET / beside %d slow clients: %s in %v, want 200 OK well within %v", n, res.Status, took, headerTimeout)
	}
	if g := goroutines(); g > before+maxConns+50 {
		t.Errorf("%d goroutines with %d slow clients (%d before): the cap of %d did not hold", g, n, before, maxConns)
	}
	deadline := time.Until(start.Add(headerTimeout + 3*time.Second))
	for i, c := range conns {
		if !dropped(c, deadline) {
			t.Fatalf("slow client %d still connected %v after it stalled", i, time.Since(start))
		}
	}
}
