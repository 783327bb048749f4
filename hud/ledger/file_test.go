package ledger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// plus10 is a zone whose local days are not UTC's.
var plus10 = time.FixedZone("UTC+10", 10*3600)

func TestAppendModesAndDays(t *testing.T) {
	setLocal(t, plus10)
	dir := filepath.Join(t.TempDir(), "capacitor", "ledger")
	late := time.Date(2026, 3, 10, 23, 59, 59, 0, time.Local) // 13:59:59 UTC
	early := time.Date(2026, 3, 11, 0, 0, 1, 0, time.Local)   // 14:00:01 UTC, same UTC day
	// Written out of order, and in other zones: the local day decides.
	if err := Append(dir,
		Entry{T: early.UTC(), Key: "a", State: "ready"},
		Entry{T: late, Key: "a", State: "working"},
		Entry{T: late.Add(-time.Hour).In(time.FixedZone("W", -5*3600)), Key: "b", State: "waiting", For: "Bash: ls"},
	); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("ledger directory: %v, %v; want 0700", fi.Mode(), err)
	}
	for day, lines := range map[string]int{"2026-03-10.jsonl": 2, "2026-03-11.jsonl": 1} {
		path := filepath.Join(dir, day)
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want 0600", day, fi.Mode(), err)
			continue
		}
		b, _ := os.ReadFile(path)
		if n := strings.Count(string(b), "\n"); n != lines {
			t.Errorf("%s holds %d lines, want %d:\n%s", day, n, lines, b)
		}
	}
	got, bad, err := Read(dir, late, early)
	if err != nil || bad != 0 || len(got) != 3 {
		t.Fatalf("Read: %d entries, %d bad, %v; want 3, 0, nil", len(got), bad, err)
	}
	for i, key := range []string{"b", "a", "a"} {
		if got[i].Key != key || i > 0 && got[i].T.Before(got[i-1].T) {
			t.Errorf("entry %d: %+v; want key %s, in time order", i, got[i], key)
		}
	}
	if got, _, _ := Read(dir, early, early); len(got) != 1 || got[0].State != "ready" {
		t.Errorf("Read of the second day alone: %+v", got)
	}
	if got, bad, err := Read(filepath.Join(dir, "none"), late, early); got != nil || bad != 0 || err != nil {
		t.Errorf("Read of a missing ledger: %v, %d, %v", got, bad, err)
	}
	if err := Append(filepath.Join(dir, "unused")); err != nil {
		t.Errorf("Append of nothing: %v", err)
	}
}

func TestReadSkipsBadLines(t *testing.T) {
	setLocal(t, time.UTC)
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.Local)
	if err := Append(dir, Entry{T: t0, Key: "a", State: "working"}); err != nil {
		t.Fatal(err)
	}
	path := dayFile(dir, t0)
	whole := string(encodeLine(t, Entry{T: t0.Add(time.Minute), Key: "a", State: "ready"}))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A line of something else, empty lines, then a writer that crashed
	// half-way through its line.
	fmt.Fprint(f, "garbage {\n\n\n"+whole[:len(whole)/2])
	f.Close()
	// The next writer's lines are read whole: only the cut line is lost.
	if err := Append(dir, Entry{T: t0.Add(2 * time.Minute), Key: "b", State: "waiting"},
		Entry{T: t0.Add(3 * time.Minute), Key: "b", State: "working"}); err != nil {
		t.Fatal(err)
	}
	got, bad, err := Read(dir, t0, t0)
	if err != nil || bad != 2 {
		t.Fatalf("Read: %d bad, %v; want 2 bad lines", bad, err)
	}
	var states []string
	for _, e := range got {
		states = append(states, e.Key+":"+e.State)
	}
	if s := strings.Join(states, " "); s != "a:working b:waiting b:working" {
		t.Errorf("read %s, want a:working b:waiting b:working", s)
	}
}

func TestLinksAndFIFOsRefused(t *testing.T) {
	setLocal(t, time.UTC)
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.Local)
	e := Entry{T: t0, Key: "a", State: "working"}
	for _, kind := range []string{"link", "dangling link", "fifo"} {
		dir := t.TempDir()
		target := filepath.Join(t.TempDir(), "target")
		path := dayFile(dir, t0)
		var err error
		switch kind {
		case "link":
			if err = os.WriteFile(target, []byte("precious\n"), 0o600); err == nil {
				err = os.Symlink(target, path)
			}
		case "dangling link":
			err = os.Symlink(target, path)
		case "fifo":
			err = syscall.Mkfifo(path, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan [2]error, 1)
		go func() {
			_, _, rerr := Read(dir, t0, t0)
			done <- [2]error{Append(dir, e), rerr}
		}()
		select {
		case errs := <-done:
			if errs[0] == nil || errs[1] == nil {
				t.Errorf("%s: Append %v, Read %v; want both refused", kind, errs[0], errs[1])
			}
			if kind != "fifo" && !errors.Is(errs[1], safefile.ErrSymlink) {
				t.Errorf("%s: Read %v, want ErrSymlink", kind, errs[1])
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Append or Read blocks", kind)
		}
		b, err := os.ReadFile(target)
		if kind == "link" && (err != nil || string(b) != "precious\n") || kind == "dangling link" && err == nil {
			t.Errorf("%s: written through: %q, %v", kind, b, err)
		}
	}
}

func TestDayFull(t *testing.T) {
	setLocal(t, time.UTC)
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.Local)
	e := Entry{T: t0, Key: "a", State: "working"}
	n := int64(len(encodeLine(t, e)))
	path := dayFile(dir, t0)
	// A sparse file, its last line ended, just short of one more line: it
	// takes that line, and no more.
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, MaxDay-n-1); err != nil {
		t.Fatal(err)
	}
	if err := Append(dir, Entry{T: t0, Key: "a", State: "compacting"}); !errors.Is(err, ErrDayFull) {
		t.Errorf("a line that does not fit: %v, want ErrDayFull", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("\n"))
	f.Close()
	if err := Append(dir, e); err != nil {
		t.Fatalf("the last line that fits: %v", err)
	}
	err = Append(dir, e, Entry{T: t0.AddDate(0, 0, 1), Key: "a", State: "ready"})
	if !errors.Is(err, ErrDayFull) {
		t.Errorf("past MaxDay: %v, want ErrDayFull", err)
	}
	if fi, _ := os.Stat(path); fi.Size() != MaxDay {
		t.Errorf("the full day's file is %d bytes, want %d", fi.Size(), MaxDay)
	}
	// The next day still takes its line.
	if fi, err := os.Stat(dayFile(dir, t0.AddDate(0, 0, 1))); err != nil || fi.Size() == 0 {
		t.Errorf("the next day's file: %v", err)
	}
}

func TestConcurrentAppendsKeepLinesWhole(t *testing.T) {
	setLocal(t, time.UTC)
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 10, 9, 0, 0, 0, time.Local)
	const writers, lines = 20, 200
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range lines {
				e := Entry{T: t0.Add(time.Duration(i) * time.Millisecond), Key: fmt.Sprint("w", w), State: "waiting",
					For: fmt.Sprintf("%d %s", i, strings.Repeat("x", maxField))}
				if err := Append(dir, e); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, bad, err := Read(dir, t0, t0)
	if err != nil || bad != 0 || len(got) != writers*lines {
		t.Fatalf("Read: %d entries, %d bad, %v; want %d, 0", len(got), bad, err, writers*lines)
	}
	next := map[string]int{} // each writer's lines in the order it wrote them
	for _, e := range got {
		var i int
		fmt.Sscan(e.For, &i)
		if i != next[e.Key] {
			t.Fatalf("%s: line %d after line %d", e.Key, i, next[e.Key]-1)
		}
		next[e.Key]++
	}
}

func TestDays(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	setLocal(t, berlin)
	d := func(day, h int) time.Time { return time.Date(2026, 3, day, h, 0, 0, 0, time.Local) }
	tests := []struct {
		from, to time.Time
		want     string
	}{
		{d(10, 9), d(10, 17), "03-10"},
		{d(10, 23), d(11, 0), "03-10 03-11"},
		{d(28, 0), d(30, 23), "03-28 03-29 03-30"}, // summer time begins on the 29th
		{d(11, 0), d(10, 23), ""},
		{d(10, 9).UTC(), d(11, 0).UTC(), "03-10 03-11"},
	}
	for _, tt := range tests {
		var got []string
		for _, day := range days(tt.from, tt.to) {
			got = append(got, day.Format("01-02"))
		}
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("days(%v, %v) = %s, want %s", tt.from, tt.to, s, tt.want)
		}
	}
	if n := len(days(d(1, 0), d(1, 0).AddDate(5, 0, 0))); n > 401 {
		t.Errorf("days over five years: %d, want at most 401", n)
	}
}

func TestPrune(t *testing.T) {
	setLocal(t, plus10)
	now := time.Date(2026, 3, 31, 8, 0, 0, 0, time.Local)
	day := func(n int) string { return now.AddDate(0, 0, -n).Format(dayLayout) + ".jsonl" }
	const mb = 1 << 20
	big := map[string]int64{}
	for n := range 10 {
		big[day(n)] = 40 * mb // 400 MB together
	}
	tests := []struct {
		name    string
		files   map[string]int64 // name: size
		keep    time.Duration
		removed []string
	}{
		{"days older than keep", map[string]int64{day(0): 10, day(1): 10, day(30): 10, day(31): 10, day(40): 10},
			DefaultKeep, []string{day(31), day(40)}},
		{"keep of a day", map[string]int64{day(0): 10, day(1): 10, day(2): 10}, 24 * time.Hour, []string{day(2)}},
		{"never the newest", map[string]int64{day(40): 10, day(50): 10}, DefaultKeep, []string{day(50)}},
		{"the newest even over MaxTotal", map[string]int64{day(0): MaxTotal + 1}, DefaultKeep, nil},
		{"the oldest over MaxTotal", big, DefaultKeep, []string{day(9), day(8), day(7), day(6)}},
		{"not day files", map[string]int64{day(0): 10, "notes.txt": 10, "2020-13-01.jsonl": 10, "2020-01-01.json": 10,
			"2020-01-01.jsonl.bak": 10, "x2020-01-01.jsonl": 10, "recorder.lock": 0}, DefaultKeep, nil},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		for name, size := range tt.files {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
		}
		// A directory and a link named as old days are not day files.
		os.Mkdir(filepath.Join(dir, "2019-01-01.jsonl"), 0o700)
		os.Symlink(filepath.Join(dir, day(0)), filepath.Join(dir, "2019-01-02.jsonl"))
		n, err := Prune(dir, now, tt.keep)
		if err != nil || n != len(tt.removed) {
			t.Errorf("%s: removed %d, %v; want %d", tt.name, n, err, len(tt.removed))
		}
		gone := map[string]bool{}
		for _, name := range tt.removed {
			gone[name] = true
		}
		for name := range tt.files {
			if _, err := os.Lstat(filepath.Join(dir, name)); gone[name] != errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: %s removed %v, want %v", tt.name, name, !gone[name], gone[name])
			}
		}
		for _, name := range []string{"2019-01-01.jsonl", "2019-01-02.jsonl"} {
			if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%s: %s: %v", tt.name, name, err)
			}
		}
	}
	if n, err := Prune(filepath.Join(t.TempDir(), "none"), now, DefaultKeep); n != 0 || err != nil {
		t.Errorf("Prune of a missing ledger: %d, %v", n, err)
	}
}

// raceEnabled says the test runs under the race detector.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// TestYearOfEvents appends a busy year, pruned once a day as the recorder
// does: the ledger keeps its bounds.
func TestYearOfEvents(t *testing.T) {
	setLocal(t, plus10)
	dir := t.TempDir()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.Local)
	const sessions, year, kept = 20, 365, 31
	// Each session's transitions a day: a hundred in the days the ledger
	// keeps at the end, whose size it bounds; fewer before, days that show
	// Prune keeps pace (and under the race detector, ten times slower).
	busy, quiet := 100, 10
	if raceEnabled() {
		busy, quiet = 10, 3
	}
	states := []string{"working", "waiting", "working", "compacting", "working", "ready"}
	var batch []Entry
	for d := range year {
		day := start.AddDate(0, 0, d)
		n := sessions * quiet
		if d >= year-kept {
			n = sessions * busy
		}
		batch = batch[:0]
		for i := range n {
			s, state := i%sessions, states[i/sessions%len(states)]
			e := Entry{T: day.Add(time.Duration(i) * 86000 / time.Duration(n) * time.Second), Key: fmt.Sprintf("0000-%04d-%03d", d, s),
				Project: fmt.Sprint("/home/me/src/project-", s), Name: "a task", State: state, Commits: i / sessions, Files: i / 50}
			if state == "waiting" {
				e.For = "Bash: go test -race ./... && git push origin main"
			}
			batch = append(batch, e)
		}
		if err := Append(dir, batch...); err != nil {
			t.Fatal(err)
		}
		if _, err := Prune(dir, day.Add(23*time.Hour+59*time.Minute), DefaultKeep); err != nil {
			t.Fatal(err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) > kept {
			t.Fatalf("day %d: %d files", d, len(ents))
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		total += fi.Size()
	}
	last := start.AddDate(0, 0, year-1)
	if len(ents) != kept || ents[0].Name() != last.AddDate(0, 0, 1-kept).Format(dayLayout)+".jsonl" || total > MaxTotal ||
		total < int64(kept*sessions*busy*100) {
		t.Errorf("%d files from %s, %d bytes; want %d files from %d days before %s, at most %d bytes",
			len(ents), ents[0].Name(), total, kept, kept-1, last.Format(dayLayout), MaxTotal)
	}
	got, bad, err := Read(dir, last.AddDate(0, 0, 1-kept), last)
	if err != nil || bad != 0 || len(got) != kept*sessions*busy {
		t.Errorf("the days kept: %d entries, %d bad, %v; want %d", len(got), bad, err, kept*sessions*busy)
	}
}
