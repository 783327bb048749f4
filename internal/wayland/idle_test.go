package wayland

import (
	"bufio"
	"context"
	"errors"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCompositor serves the requests a Watcher makes, offering the given
// globals, and records the idle request it got.
type fakeCompositor struct {
	t       *testing.T
	path    string
	globals []string // interface names, each at version 2 (1 for KDE's)
	refuse  bool     // answer the idle request with a protocol error

	mu           sync.Mutex
	conn         *conn
	request      string // "get_idle_notification 5000" and the like
	notification uint32
	got          chan struct{}
}

func startFake(t *testing.T, globals ...string) *fakeCompositor {
	f := &fakeCompositor{t: t, path: filepath.Join(t.TempDir(), "wayland-0"), globals: globals, got: make(chan struct{})}
	l, err := net.Listen("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		t.Cleanup(func() { c.Close() })
		f.serve(&conn{c: c, r: bufio.NewReader(c)})
	}()
	return f
}

func (f *fakeCompositor) serve(c *conn) {
	f.mu.Lock()
	f.conn = c
	f.mu.Unlock()
	bound := map[uint32]string{} // object id: interface
	for {
		r, err := c.read()
		if err != nil {
			return
		}
		off := 0
		switch {
		case r.object == displayID && r.opcode == 1: // get_registry
			registry, _ := r.uintArg(&off)
			for i, g := range f.globals {
				version := uint32(2)
				if g == KDEIdle || g == "wl_seat" {
					version = 1
				}
				c.send(registry, 0, new(message).uint(uint32(i+1)).string(g).uint(version))
			}
		case r.object == displayID && r.opcode == 0: // sync
			callback, _ := r.uintArg(&off)
			c.send(callback, 0, new(message).uint(0))
		case bound[r.object] == "" && r.opcode == 0 && len(r.args) > 8: // registry.bind
			name, _ := r.uintArg(&off)
			iface, _ := r.stringArg(&off)
			r.uintArg(&off)
			id, _ := r.uintArg(&off)
			bound[id] = iface
			_ = name
		default:
			f.idleRequest(c, bound[r.object], r)
		}
	}
}

func (f *fakeCompositor) idleRequest(c *conn, iface string, r event) {
	off := 0
	id, _ := r.uintArg(&off)
	a, _ := r.uintArg(&off)
	b, _ := r.uintArg(&off)
	var req string
	switch {
	case iface == KDEIdle && r.opcode == 0:
		req = "get_idle_timeout " + strconv.Itoa(int(b))
	case iface == ExtIdleNotify && r.opcode == 1:
		req = "get_idle_notification " + strconv.Itoa(int(a))
	case iface == ExtIdleNotify && r.opcode == 2:
		req = "get_input_idle_notification " + strconv.Itoa(int(a))
	default:
		return
	}
	if f.refuse {
		c.send(displayID, 0, new(message).uint(r.object).uint(3).string("no idle here"))
		return
	}
	f.mu.Lock()
	f.request, f.notification = req, id
	f.mu.Unlock()
	close(f.got)
}

// sendEvent sends the notification's event: 0 idled, 1 resumed.
func (f *fakeCompositor) sendEvent(opcode uint16) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.conn.send(f.notification, opcode, new(message))
}

func TestWatcherFollowsIdledAndResumed(t *testing.T) {
	for _, tc := range []struct {
		globals []string
		want    string
	}{
		{[]string{"wl_compositor", "wl_seat", ExtIdleNotify, KDEIdle}, "get_input_idle_notification 5000"},
		{[]string{"wl_seat", KDEIdle}, "get_idle_timeout 5000"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			f := startFake(t, tc.globals...)
			now := time.Unix(1000, 0)
			var mu sync.Mutex
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			w, err := Watch(context.Background(), f.path, 5*time.Second, clock)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			<-f.got
			if f.request != tc.want {
				t.Fatalf("asked %q, want %q", f.request, tc.want)
			}
			if d, err := w.Idle(); d != 0 || err != nil {
				t.Fatalf("Idle before any event = %v, %v", d, err)
			}
			f.sendEvent(0)
			// Idle since the latest moment it can have begun: a
			// coarse timer may say idled up to 5 % early.
			waitIdle(t, w, 4750*time.Millisecond)
			mu.Lock()
			now = now.Add(10 * time.Second)
			mu.Unlock()
			waitIdle(t, w, 14750*time.Millisecond)
			f.sendEvent(1)
			waitIdle(t, w, 0)
		})
	}
}

func waitIdle(t *testing.T, w *Watcher, want time.Duration) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		d, err := w.Idle()
		if err != nil {
			t.Fatal(err)
		}
		if d == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Idle = %v, want %v", d, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWatchRefusals(t *testing.T) {
	t.Run("no idle protocol", func(t *testing.T) {
		f := startFake(t, "wl_compositor", "wl_seat")
		_, err := Watch(context.Background(), f.path, time.Second, nil)
		if !errors.Is(err, ErrNoIdleProtocol) {
			t.Fatalf("err = %v, want ErrNoIdleProtocol", err)
		}
	})
	t.Run("no seat", func(t *testing.T) {
		f := startFake(t, ExtIdleNotify)
		if _, err := Watch(context.Background(), f.path, time.Second, nil); err == nil || !strings.Contains(err.Error(), "no seat") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("protocol error", func(t *testing.T) {
		f := startFake(t, "wl_seat", ExtIdleNotify)
		f.refuse = true
		_, err := Watch(context.Background(), f.path, time.Second, nil)
		if err == nil || !strings.Contains(err.Error(), "no idle here") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("compositor that never answers", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "wayland-1")
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, err := Watch(ctx, path, time.Second, nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the deadline", err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Fatalf("took %v", took)
		}
	})
}

func TestWatcherSeesTheConnectionEnd(t *testing.T) {
	f := startFake(t, "wl_seat", ExtIdleNotify)
	w, err := Watch(context.Background(), f.path, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	<-f.got
	f.mu.Lock()
	f.conn.Close()
	f.mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := w.Idle(); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("Idle still answers after the compositor left")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSocketPath(t *testing.T) {
	for _, tc := range []struct{ display, dir, want string }{
		{"", "/run/user/1", ""},
		{"wayland-1", "/run/user/1", "/run/user/1/wayland-1"},
		{"/tmp/w", "", "/tmp/w"},
		{"wayland-0", "", ""},
	} {
		if got := SocketPath(tc.display, tc.dir); got != tc.want {
			t.Errorf("SocketPath(%q, %q) = %q, want %q", tc.display, tc.dir, got, tc.want)
		}
	}
}

func TestSourceConnectsOnceAndAgainWhenLost(t *testing.T) {
	f := startFake(t, "wl_seat", KDEIdle)
	now := time.Unix(5000, 0)
	s := &Source{Path: f.path, Timeout: time.Second, RetryAfter: time.Minute, Now: func() time.Time { return now }}
	if d, err := s.Idle(context.Background()); d != 0 || err != nil {
		t.Fatalf("first Idle = %v, %v", d, err)
	}
	if s.Protocol() != KDEIdle {
		t.Errorf("Protocol = %q", s.Protocol())
	}
	<-f.got
	f.mu.Lock()
	f.conn.Close()
	f.mu.Unlock()
	// The compositor went: the error, then none asked again before
	// RetryAfter (the fake takes one connection only).
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := s.Idle(context.Background())
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Idle answers after the compositor left")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := s.Idle(context.Background()); err == nil {
		t.Error("connected again before RetryAfter")
	}
	if (&Source{}).Protocol() != "" {
		t.Error("a source never connected names a protocol")
	}
	if _, err := (&Source{}).Idle(context.Background()); err == nil {
		t.Error("a source without a display answered")
	}
}
