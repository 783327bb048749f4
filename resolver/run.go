package resolver

import (
	"cmp"
	"slices"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// run is one resolution over one snapshot: the live locks are found once
// and liveness is asked at most once per process.
type run struct {
	snap    Snapshot
	now     time.Time
	alive   Liveness
	asked   map[[2]int64]bool
	records []*store.Record // sorted by session id, for deterministic ties
	live    []*Lock         // live locks, sorted by directory
	// named holds the session ids that live locks name in their meta.
	named map[string]bool
}

func newRun(snap Snapshot, now time.Time, alive Liveness) *run {
	r := &run{snap: snap, now: now, alive: alive, asked: map[[2]int64]bool{}, named: map[string]bool{}}
	if snap.Store != nil {
		for _, rec := range snap.Store.Sessions {
			if rec != nil {
				r.records = append(r.records, rec)
			}
		}
	}
	slices.SortFunc(r.records, func(a, b *store.Record) int { return cmp.Compare(a.SessionID, b.SessionID) })
	for i := range snap.Locks {
		l := &snap.Locks[i]
		if l.PID > 0 && l.Path != "" && r.isAlive(l.PID, l.ProcStarted) {
			r.live = append(r.live, l)
			if l.SessionID != "" {
				r.named[l.SessionID] = true
			}
		}
	}
	slices.SortFunc(r.live, func(a, b *Lock) int { return cmp.Compare(a.Dir, b.Dir) })
	return r
}

// isAlive asks the Liveness function, once per (pid, start time).
func (r *run) isAlive(pid int, started int64) bool {
	key := [2]int64{int64(pid), started}
	if v, ok := r.asked[key]; ok {
		return v
	}
	v := r.alive != nil && r.alive(pid, started)
	r.asked[key] = v
	return v
}

// sameProcess reports whether rec was last written by l's process. Start
// times may differ by a second: both derive from the boot time, which
// Linux recomputes from the wall clock.
func sameProcess(rec *store.Record, l *Lock) bool {
	if rec == nil || l == nil || rec.PID == 0 || rec.PID != l.PID {
		return false
	}
	if rec.ProcStarted == 0 || l.ProcStarted == 0 {
		return true
	}
	d := rec.ProcStarted - l.ProcStarted
	return d >= -1 && d <= 1
}

// lockOfProcess returns the live lock of the process that last wrote rec.
func (r *run) lockOfProcess(rec *store.Record) *Lock {
	for _, l := range r.live {
		if sameProcess(rec, l) {
			return l
		}
	}
	return nil
}

// recordForLock finds the session a live lock stands for. A process runs
// one session at a time, so among the records its meta names (the session
// id, which follows /clear) or that its process wrote (the record's pid,
// which follows --resume) the most recently updated is its current one.
// Failing both, the record closest to the lock's path,
// exact > child > parent, leaving out records that another live lock names
// or another process wrote.
func (r *run) recordForLock(l *Lock) *store.Record {
	var best *store.Record
	for _, rec := range r.records {
		if (l.SessionID != "" && rec.SessionID == l.SessionID) || sameProcess(rec, l) {
			if best == nil || rec.UpdatedAt.After(best.UpdatedAt.Time) {
				best = rec
			}
		}
	}
	if best != nil {
		return best
	}
	lockPath := paths.NormalizeLexical(l.Path)
	bestMatch := paths.NoMatch
	for _, rec := range r.records {
		if r.named[rec.SessionID] || rec.PID != 0 {
			continue
		}
		m := paths.Compare(lockPath, paths.NormalizeLexical(rec.CWD))
		if m == paths.NoMatch {
			continue
		}
		if best == nil || betterCandidate(m, rec, bestMatch, best) {
			best, bestMatch = rec, m
		}
	}
	return best
}

// betterCandidate orders candidates for one query: the better path match,
// then the state that needs the person most, then the newer update.
func betterCandidate(m paths.Match, rec *store.Record, bestMatch paths.Match, best *store.Record) bool {
	if m != bestMatch {
		return m > bestMatch
	}
	if a, b := rec.State.Attention(), best.State.Attention(); a != b {
		return a > b
	}
	return rec.UpdatedAt.After(best.UpdatedAt.Time)
}

// preferLock decides between two live locks that resolved to one session:
// the lock of the process the record follows, else the newer lock.
func preferLock(a, b *Session) bool {
	if a.Record != nil {
		aOwns, bOwns := sameProcess(a.Record, a.Lock), sameProcess(b.Record, b.Lock)
		if aOwns != bOwns {
			return aOwns
		}
	}
	if a.Lock.Created != b.Lock.Created {
		return a.Lock.Created > b.Lock.Created
	}
	return a.Lock.Dir < b.Lock.Dir
}

// fresh reports whether rec may stand in for a lock that does not exist
// yet: updated within FreshTTL (either side of now, for a clock that
// stepped back), not idle, and not written by a process known to be gone.
func (r *run) fresh(rec *store.Record) bool {
	if rec.State == store.StateIdle || !rec.State.Valid() {
		return false
	}
	age := r.now.Sub(rec.UpdatedAt.Time)
	if age > FreshTTL || age < -FreshTTL {
		return false
	}
	return rec.PID == 0 || r.isAlive(rec.PID, rec.ProcStarted)
}
