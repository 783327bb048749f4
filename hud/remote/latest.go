package remote

import (
	"bufio"
	"context"
	"io"
	"sync"
)

// latest reads a stream's lines as fast as they come and keeps only the
// newest one not yet taken: each line is a whole state of the machine, so
// a line superseded before it was taken is never decoded. A remote
// printing a thousand lines a second costs the reader a copy of each,
// and the tray only the states it takes.
type latest struct {
	mu    sync.Mutex
	line  []byte // the newest line, when fresh
	spare []byte // the buffer handed out last, reused for the next line
	fresh bool   // line is newer than the one taken last
	ended bool   // the stream is over; err says why (nil at its end)
	err   error

	ready chan struct{} // a line came or the stream ended
	done  chan struct{} // the reading goroutine returned
}

// readLatest starts reading r's lines, each at most max bytes.
func readLatest(r io.Reader, max int) *latest {
	l := &latest{ready: make(chan struct{}, 1), done: make(chan struct{})}
	go l.read(r, max)
	return l
}

func (l *latest) read(r io.Reader, max int) {
	defer close(l.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), max)
	for sc.Scan() {
		l.mu.Lock()
		l.line = append(l.line[:0], sc.Bytes()...)
		l.fresh = true
		l.mu.Unlock()
		l.signal()
	}
	l.mu.Lock()
	l.ended, l.err = true, sc.Err()
	l.mu.Unlock()
	l.signal()
}

func (l *latest) signal() {
	select {
	case l.ready <- struct{}{}:
	default: // one pending signal says it all
	}
}

// next waits for a line newer than the last one taken and returns it; ok
// is false once the stream ended with no such line, or ctx is done. The
// line is the caller's until its next call.
func (l *latest) next(ctx context.Context) (line []byte, ok bool) {
	for {
		if line, ok := l.take(); ok {
			return line, true
		}
		l.mu.Lock()
		ended := l.ended
		l.mu.Unlock()
		if ended {
			return nil, false
		}
		select {
		case <-l.ready:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// take returns the newest line if it was not taken yet, without waiting.
func (l *latest) take() ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.fresh {
		return nil, false
	}
	l.fresh = false
	l.line, l.spare = l.spare[:0], l.line
	return l.spare, true
}

// Err is why the stream ended: nil at its end, the read's error else.
func (l *latest) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
