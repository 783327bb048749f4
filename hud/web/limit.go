package web

import (
	"sync"
	"time"
)

// failLimiter counts the requests each address made without a valid
// device or pairing secret: past maxFails in a window, the address is
// refused until the window ends. It remembers at most maxAddrs addresses,
// forgetting the oldest window first.
type failLimiter struct {
	now func() time.Time
	mu  sync.Mutex
	by  map[string]*failWindow
}

type failWindow struct {
	start time.Time
	n     int
}

const (
	maxFails   = 10
	failPeriod = time.Minute
	maxAddrs   = 4096
)

func newFailLimiter() *failLimiter {
	return &failLimiter{now: time.Now, by: map[string]*failWindow{}}
}

// blocked says whether ip is refused now.
func (l *failLimiter) blocked(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.by[ip]
	return w != nil && l.now().Sub(w.start) < failPeriod && w.n >= maxFails
}

// fail counts one failure of ip.
func (l *failLimiter) fail(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	w := l.by[ip]
	if w == nil || now.Sub(w.start) >= failPeriod {
		if w == nil && len(l.by) >= maxAddrs {
			l.forgetOldest()
		}
		w = &failWindow{start: now}
		l.by[ip] = w
	}
	w.n++
}

func (l *failLimiter) forgetOldest() {
	var oldest string
	var at time.Time
	for ip, w := range l.by {
		if oldest == "" || w.start.Before(at) {
			oldest, at = ip, w.start
		}
	}
	delete(l.by, oldest)
}
