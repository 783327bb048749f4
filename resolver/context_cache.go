package resolver

import (
	"os"
	"sync"
	"time"
)

// A reader that stays up (the tray, hud watch) reloads at every hook
// event, and most events leave most transcripts as they were: what was
// found in a transcript's tail is kept by its path, size and modification
// time, and read again only when one of those changed (an agent only ever
// appends): a stat is a small fraction of a tail's read and parse.

// tailFound is what a transcript's tail gave.
type tailFound struct {
	size    int64
	mod     time.Time
	context Context
	account *Account
	ok      bool
}

// maxTailCache bounds the cache: past it, it starts afresh.
const maxTailCache = 512

var tailCache struct {
	sync.Mutex
	m map[string]tailFound
}

// cachedTail is read(path), or what it gave last time when the file at
// path has the same size and modification time. A link at path is never
// read (read refuses it too); a file that cannot be stat'ed is read.
func cachedTail(path string, read func() (Context, *Account, bool)) (Context, *Account, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return read()
	}
	tailCache.Lock()
	f, hit := tailCache.m[path]
	tailCache.Unlock()
	if hit && f.size == fi.Size() && f.mod.Equal(fi.ModTime()) {
		return f.context, copyAccount(f.account), f.ok
	}
	c, a, ok := read()
	tailCache.Lock()
	defer tailCache.Unlock()
	if tailCache.m == nil || len(tailCache.m) >= maxTailCache {
		tailCache.m = map[string]tailFound{}
	}
	tailCache.m[path] = tailFound{size: fi.Size(), mod: fi.ModTime(), context: c, account: copyAccount(a), ok: ok}
	return c, a, ok
}

// copyAccount is a copy of a that shares nothing with it.
func copyAccount(a *Account) *Account {
	if a == nil {
		return nil
	}
	c := *a
	return &c
}
