package resolver

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// now is the fixed clock of every resolver test.
var now = time.Date(2026, 1, 21, 10, 30, 0, 0, time.UTC)

// Processes of the tests: pid → start time (Unix seconds). Pids not listed
// are dead.
const (
	pidA, startedA = 1001, 1_700_000_001
	pidB, startedB = 1002, 1_700_000_002
	pidC, startedC = 1003, 1_700_000_003
	pidDead        = 4004
)

var liveProcs = map[int]int64{pidA: startedA, pidB: startedB, pidC: startedC}

// alive is the Liveness of the tests' process table.
func alive(pid int, started int64) bool {
	s, ok := liveProcs[pid]
	return ok && (started == 0 || started == s)
}

// rec builds a record updated age ago, in state since then.
func rec(id string, state store.State, cwd string, age time.Duration, opts ...func(*store.Record)) *store.Record {
	r := &store.Record{
		SessionID:      id,
		State:          state,
		CWD:            cwd,
		UpdatedAt:      store.At(now.Add(-age)),
		StateChangedAt: store.At(now.Add(-age)),
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// ofProc marks a record as written by process pid.
func ofProc(pid int, started int64) func(*store.Record) {
	return func(r *store.Record) { r.PID, r.ProcStarted = pid, started }
}

// lock builds the lock of process pid at path naming session sid.
func lock(path string, pid int, started int64, sid string) Lock {
	return Lock{
		Dir:      "/home/me/.claude/sessions/" + paths.LockName(path, pid),
		LockMeta: LockMeta{PID: pid, Path: path, Created: now.Add(-time.Hour).Unix(), ProcStarted: started, SessionID: sid},
	}
}

func snapshot(locks []Lock, records ...*store.Record) Snapshot {
	s := store.New()
	for _, r := range records {
		s.Sessions[r.SessionID] = r
	}
	return Snapshot{Store: s, Locks: locks}
}

// want is the expected outcome of ResolveState; nil means no session.
type want struct {
	state     store.State
	fromLock  bool
	sessionID string
	match     paths.Match
}

func (w *want) String() string {
	if w == nil {
		return "none"
	}
	return fmt.Sprintf("%s lock=%v session=%q match=%s", w.state, w.fromLock, w.sessionID, w.match)
}

func got(res Resolution, ok bool) *want {
	if !ok {
		return nil
	}
	return &want{res.State, res.IsFromLock, res.SessionID, res.Match}
}

func TestResolveState(t *testing.T) {
	tests := []struct {
		name    string
		locks   []Lock
		records []*store.Record
		query   string
		want    *want
	}{
		// The path-matching table, with a lock and as fresh records.
		{
			name:    "paths: exact record under an exact lock",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateWorking, true, "s1", paths.MatchExact},
		},
		{
			name:    "paths: record cd'd into a subdir, lock at the project",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateReady, "/project/src", time.Hour, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateReady, true, "s1", paths.MatchChild},
		},
		{
			name:    "paths: session started at /, lock there too: a parent lock does not count",
			locks:   []Lock{lock("/", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/", time.Second, ofProc(pidA, startedA))},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "paths: exact fresh record",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", 5*time.Second)},
			query:   "/project",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},
		{
			name:    "paths: child fresh record",
			records: []*store.Record{rec("s1", store.StateWaiting, "/project/src", 5*time.Second)},
			query:   "/project",
			want:    &want{store.StateWaiting, false, "s1", paths.MatchChild},
		},
		{
			name:    "paths: parent fresh record never counts",
			records: []*store.Record{rec("s1", store.StateWorking, "/", time.Second)},
			query:   "/project",
			want:    nil,
		},

		// Parent-only records.
		{
			name:    "parent-only record with a lock at the project: the lock's record by path",
			locks:   []Lock{lock("/project", pidA, startedA, "")},
			records: []*store.Record{rec("s1", store.StateWaiting, "/", time.Hour)},
			query:   "/project",
			want:    &want{store.StateWaiting, true, "s1", paths.MatchParent},
		},
		{
			name:    "parent-only record without a lock, fresh",
			records: []*store.Record{rec("s1", store.StateWaiting, "/home", time.Second)},
			query:   "/home/me/project",
			want:    nil,
		},
		{
			name:    "lock path fallback prefers exact over child over parent",
			locks:   []Lock{lock("/project", pidA, startedA, "")},
			records: []*store.Record{rec("p", store.StateWaiting, "/", time.Minute), rec("c", store.StateWaiting, "/project/a", time.Minute), rec("e", store.StateReady, "/project", time.Hour)},
			query:   "/project",
			want:    &want{store.StateReady, true, "e", paths.MatchExact},
		},
		{
			name:  "lock path fallback never takes another process's record",
			locks: []Lock{lock("/project", pidA, startedA, "")},
			// Left behind by a kill -9 of an earlier Claude in the same
			// directory: its pid is dead, it is not this lock's session.
			records: []*store.Record{rec("old", store.StateWorking, "/project", time.Hour, ofProc(pidDead, 1))},
			query:   "/project",
			want:    &want{store.StateReady, true, "", paths.MatchExact},
		},

		// "/" and trailing slashes.
		{
			name:    "querying / finds a session anywhere (child lock)",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour, ofProc(pidA, startedA))},
			query:   "/",
			want:    &want{store.StateWorking, true, "s1", paths.MatchChild},
		},
		{
			name:    "querying / with a session at /",
			records: []*store.Record{rec("s1", store.StateWorking, "/", time.Second)},
			query:   "/",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},
		{
			name:    "trailing slash on the query",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour, ofProc(pidA, startedA))},
			query:   "/project/",
			want:    &want{store.StateWorking, true, "s1", paths.MatchExact},
		},
		{
			name:    "trailing slash on the record and the lock",
			locks:   []Lock{lock("/project/", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project//", time.Hour, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateWorking, true, "s1", paths.MatchExact},
		},
		{
			name:    "a sibling sharing a prefix is no child",
			locks:   []Lock{lock("/project-old", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project-old", time.Second, ofProc(pidA, startedA))},
			query:   "/project",
			want:    nil,
		},

		// The fresh window.
		{
			name:    "fresh at 29.9 s",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", 29900*time.Millisecond)},
			query:   "/project",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},
		{
			name:    "fresh at exactly 30 s",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", 30*time.Second)},
			query:   "/project",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},
		{
			name:    "stale at 30.1 s",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", 30100*time.Millisecond)},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "fresh but idle",
			records: []*store.Record{rec("s1", store.StateIdle, "/project", time.Second)},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "fresh, its process alive",
			records: []*store.Record{rec("s1", store.StateReady, "/project", time.Second, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateReady, false, "s1", paths.MatchExact},
		},
		{
			name:    "fresh, but its process is dead",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Second, ofProc(pidDead, 5))},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "fresh, but its pid now names another process",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Second, ofProc(pidA, startedA-60))},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "a clock that stepped back: updated 10 s in the future is fresh",
			records: []*store.Record{rec("s1", store.StateWorking, "/project", -10*time.Second)},
			query:   "/project",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},

		// Stale locks.
		{
			name:    "stale lock: dead pid, old record",
			locks:   []Lock{lock("/project", pidDead, 5, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour, ofProc(pidDead, 5))},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "stale lock: pid alive but started at another time",
			locks:   []Lock{lock("/project", pidA, startedA-3600, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour)},
			query:   "/project",
			want:    nil,
		},
		{
			name:    "stale lock, fresh record of a live process: the fallback still answers",
			locks:   []Lock{lock("/project", pidDead, 5, "old")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Second, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},
		{
			name:    "lock start time one second off (boot time jitter) is live",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour, ofProc(pidA, startedA+1))},
			query:   "/project",
			want:    &want{store.StateWorking, true, "s1", paths.MatchExact},
		},

		// Several sessions.
		{
			name: "two sessions in one project: the one waiting wins",
			locks: []Lock{
				lock("/project", pidA, startedA, "s1"),
				lock("/project", pidB, startedB, "s2"),
			},
			records: []*store.Record{
				rec("s1", store.StateWorking, "/project", time.Second, ofProc(pidA, startedA)),
				rec("s2", store.StateWaiting, "/project", time.Hour, ofProc(pidB, startedB)),
			},
			query: "/project",
			want:  &want{store.StateWaiting, true, "s2", paths.MatchExact},
		},
		{
			name: "two sessions in one project, same state: the most recently updated wins",
			locks: []Lock{
				lock("/project", pidA, startedA, "s1"),
				lock("/project", pidB, startedB, "s2"),
			},
			records: []*store.Record{
				rec("s1", store.StateReady, "/project", time.Minute, ofProc(pidA, startedA)),
				rec("s2", store.StateReady, "/project", time.Hour, ofProc(pidB, startedB)),
			},
			query: "/project",
			want:  &want{store.StateReady, true, "s1", paths.MatchExact},
		},
		{
			name: "an exact lock beats a child lock that needs more attention",
			locks: []Lock{
				lock("/project", pidA, startedA, "s1"),
				lock("/project/sub", pidB, startedB, "s2"),
			},
			records: []*store.Record{
				rec("s1", store.StateReady, "/project", time.Hour, ofProc(pidA, startedA)),
				rec("s2", store.StateWaiting, "/project/sub", time.Second, ofProc(pidB, startedB)),
			},
			query: "/project",
			want:  &want{store.StateReady, true, "s1", paths.MatchExact},
		},
		{
			name:  "a lock beats a fresh exact record",
			locks: []Lock{lock("/project/sub", pidA, startedA, "s1")},
			records: []*store.Record{
				rec("s1", store.StateReady, "/project/sub", time.Hour, ofProc(pidA, startedA)),
				rec("s2", store.StateWaiting, "/project", time.Second, ofProc(pidB, startedB)),
			},
			query: "/project",
			want:  &want{store.StateReady, true, "s1", paths.MatchChild},
		},
		{
			name: "fresh records: exact beats child, then waiting beats working",
			records: []*store.Record{
				rec("c", store.StateWaiting, "/project/sub", time.Second),
				rec("e1", store.StateWorking, "/project", time.Second),
				rec("e2", store.StateWaiting, "/project", 20*time.Second),
			},
			query: "/project",
			want:  &want{store.StateWaiting, false, "e2", paths.MatchExact},
		},

		// A session that moved into a subdirectory.
		{
			name:    "moved into a subdir: the project still resolves through its lock",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project/web", time.Minute, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateWorking, true, "s1", paths.MatchChild},
		},
		{
			name:    "moved into a subdir: the subdir itself, record fresh",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project/web", time.Second, ofProc(pidA, startedA))},
			query:   "/project/web",
			want:    &want{store.StateWorking, false, "s1", paths.MatchExact},
		},
		{
			name:    "moved into a subdir: the subdir itself once the record is stale (the lock is a parent)",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateWorking, "/project/web", time.Minute, ofProc(pidA, startedA))},
			query:   "/project/web",
			want:    nil,
		},
		{
			name:    "moved out of the project entirely: the lock's own path gives the match",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: []*store.Record{rec("s1", store.StateReady, "/tmp", time.Minute, ofProc(pidA, startedA))},
			query:   "/project",
			want:    &want{store.StateReady, true, "s1", paths.MatchExact},
		},

		// Records and locks of one process.
		{
			name:    "a live lock with no record yet: running, ready",
			locks:   []Lock{lock("/project", pidA, startedA, "s1")},
			records: nil,
			query:   "/project",
			want:    &want{store.StateReady, true, "s1", paths.MatchExact},
		},
		{
			name:  "after /clear the lock still names the old session: the process's newest record",
			locks: []Lock{lock("/project", pidA, startedA, "old")},
			records: []*store.Record{
				rec("old", store.StateWorking, "/project", time.Hour, ofProc(pidA, startedA)),
				rec("new", store.StateReady, "/project", time.Minute, ofProc(pidA, startedA)),
			},
			query: "/project",
			want:  &want{store.StateReady, true, "new", paths.MatchExact},
		},
		{
			name: "resume: two live locks name one session, the record follows the new process",
			locks: []Lock{
				lock("/project", pidA, startedA, "s1"),
				lock("/project", pidB, startedB, "s1"),
			},
			records: []*store.Record{rec("s1", store.StateWorking, "/project", time.Hour, ofProc(pidB, startedB))},
			query:   "/project",
			want:    &want{store.StateWorking, true, "s1", paths.MatchExact},
		},
		{
			name: "resume: the old process is gone, the new one holds the session",
			locks: []Lock{
				lock("/project", pidDead, 7, "s1"),
				lock("/project", pidB, startedB, "s1"),
			},
			records: []*store.Record{rec("s1", store.StateReady, "/project", time.Hour, ofProc(pidB, startedB))},
			query:   "/project",
			want:    &want{store.StateReady, true, "s1", paths.MatchExact},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshot(tt.locks, tt.records...)
			g := got(ResolveState(snap, tt.query, now, alive))
			if g.String() != tt.want.String() {
				t.Errorf("ResolveState(%q)\n got %v\nwant %v", tt.query, g, tt.want)
			}
			// A lock decides only while its process lives.
			if res, ok := ResolveState(snap, tt.query, now, alive); ok && res.IsFromLock && !alive(res.Lock.PID, res.Lock.ProcStarted) {
				t.Errorf("ResolveState(%q) decided by the stale lock %+v", tt.query, res.Lock)
			}
		})
	}
}

func TestTheDecidingLockIsTheProcessTheRecordFollows(t *testing.T) {
	old, resumed := lock("/project", pidA, startedA, "s1"), lock("/project", pidB, startedB, "s1")
	resumed.Created = old.Created - 10 // even when its lock is older
	for _, locks := range [][]Lock{{old, resumed}, {resumed, old}} {
		snap := snapshot(locks, rec("s1", store.StateWorking, "/project", time.Minute, ofProc(pidB, startedB)))
		res, ok := ResolveState(snap, "/project", now, alive)
		if !ok || !res.IsFromLock || res.Lock.PID != pidB {
			t.Errorf("ResolveState decided by %+v (found %v), want pid %d", res.Lock, ok, pidB)
		}
	}
}

func TestResolveStateNilStoreAndNilLiveness(t *testing.T) {
	snap := Snapshot{Locks: []Lock{lock("/project", pidA, startedA, "s1")}}
	if res, ok := ResolveState(snap, "/project", now, alive); !ok || res.State != store.StateReady {
		t.Errorf("nil store: got %+v, %v; want a ready session from the lock", res, ok)
	}
	// Without a way to tell, no lock is trusted.
	if _, ok := ResolveState(snap, "/project", now, nil); ok {
		t.Error("nil liveness: a lock was trusted")
	}
}

func TestLivenessAskedOncePerProcess(t *testing.T) {
	asked := map[[2]int64]int{}
	counting := func(pid int, started int64) bool {
		asked[[2]int64{int64(pid), started}]++
		return alive(pid, started)
	}
	var locks []Lock
	var records []*store.Record
	for i := range 5 {
		id := fmt.Sprint("s", i)
		locks = append(locks, lock(fmt.Sprint("/p", i), pidA, startedA, id))
		records = append(records, rec(id, store.StateReady, fmt.Sprint("/p", i), time.Second, ofProc(pidA, startedA)))
	}
	ResolveAll(snapshot(locks, records...), now, counting)
	for k, n := range asked {
		if n > 1 {
			t.Errorf("liveness of %v asked %d times", k, n)
		}
	}
}

func TestSymlinkedProjectResolves(t *testing.T) {
	// The temp dir itself may sit behind a symlink (macOS /var) and, on
	// macOS, is case-folded: start from its normalized form.
	tmp := paths.Normalize(t.TempDir())
	real := filepath.Join(tmp, "code", "api")
	if err := os.MkdirAll(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "api-link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}

	snap := snapshot([]Lock{lock(paths.Normalize(link), pidA, startedA, "s")},
		rec("s", store.StateWorking, paths.Normalize(link+"/"), 0, ofProc(pidA, startedA)))
	for _, q := range []string{real, link, link + "/", filepath.Join(link, ".")} {
		res, ok := ResolveState(snap, paths.Normalize(q), now, alive)
		if !ok || res.Match != paths.MatchExact || !res.IsFromLock {
			t.Errorf("query %q: %+v, %v; want an exact lock match", q, res, ok)
		}
	}
}
