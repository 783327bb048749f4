package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// Bounds of the ledger. A day of twenty busy sessions writes about a
// megabyte; a day file past MaxDay takes no more lines (the recorder says
// so in its log), and Prune keeps the files together under MaxTotal.
const (
	MaxDay   = 32 << 20
	MaxTotal = 256 << 20
	// DefaultKeep is how long the ledger is kept ([history] keep).
	DefaultKeep = 30 * 24 * time.Hour
)

// ErrDayFull is Append's error for a day whose file reached MaxDay.
var ErrDayFull = errors.New("the ledger's file for the day is full")

const dayLayout = "2006-01-02"

// dayFile is the file of the local day of t.
func dayFile(dir string, t time.Time) string {
	return filepath.Join(dir, t.Local().Format(dayLayout)+".jsonl")
}

// Append adds entries to the ledger in dir, each to the file of its local
// day, made 0600 in a 0700 directory. Each day's lines go in one write to
// a file opened O_APPEND, so writers in several processes never cut into
// each other's lines; a link in the file's place is refused.
func Append(dir string, entries ...Entry) error {
	if len(entries) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the ledger: %w", err)
	}
	byDay := map[string][]byte{}
	var order []string
	for _, e := range entries {
		line, err := e.encode()
		if err != nil {
			return err
		}
		f := dayFile(dir, e.T)
		if _, ok := byDay[f]; !ok {
			order = append(order, f)
		}
		byDay[f] = append(byDay[f], line...)
	}
	var errs []error
	for _, path := range order {
		errs = append(errs, appendFile(path, byDay[path]))
	}
	return errors.Join(errs...)
}

func appendFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return fmt.Errorf("writing the ledger: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Errorf("writing the ledger: %w", err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("writing the ledger: %s is not a regular file", path)
	}
	// A writer that crashed mid-line left that line without its end: end
	// it, so it alone is lost, not also the first line written after it.
	var last [1]byte
	if fi.Size() > 0 {
		if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
			b = append([]byte{'\n'}, b...)
		}
	}
	if fi.Size()+int64(len(b)) > MaxDay {
		return fmt.Errorf("%s: %w", path, ErrDayFull)
	}
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("writing the ledger: %w", err)
	}
	return nil
}

// Read returns the entries of dir from the files of the local days from
// from to to, in time order, and how many lines it could not read. A
// missing ledger is no entries; a day it could not read at all is left
// out, and said in the error, which comes with the other days' entries. The days are read side by side, one
// goroutine per processor: a month is tens of thousands of lines.
func Read(dir string, from, to time.Time) ([]Entry, int, error) {
	ds := days(from, to)
	type dayRead struct {
		entries []Entry
		bad     int
		err     error
	}
	reads := make([]dayRead, len(ds))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ds)) {
		wg.Go(func() {
			dec := newLineDecoder()
			for i := range next {
				r := &reads[i]
				r.entries, r.bad, r.err = dec.readDay(dayFile(dir, ds[i]))
			}
		})
	}
	for i := range ds {
		next <- i
	}
	close(next)
	wg.Wait()
	n := 0
	for _, r := range reads {
		n += len(r.entries)
	}
	var out []Entry
	if n > 0 {
		out = make([]Entry, 0, n)
	}
	bad := 0
	var errs []error
	for _, r := range reads {
		// A day that cannot be read (a link or a FIFO in its place, a file
		// past the bound) costs that day, never the others.
		errs = append(errs, r.err)
		out = append(out, r.entries...)
		bad += r.bad
	}
	return out, bad, errors.Join(errs...)
}

// readDay reads one day's file: its entries, and how many lines it could
// not read. A missing file has none.
func (d *lineDecoder) readDay(path string) ([]Entry, int, error) {
	b, _, err := safefile.Read(path, MaxDay+maxLine, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("reading the ledger: %w", err)
	}
	out := make([]Entry, 0, bytes.Count(b, []byte{'\n'})+1)
	bad := 0
	for line := range bytes.Lines(b) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) == 0 {
			continue
		}
		if e, ok := d.decode(line); ok {
			out = append(out, e)
		} else {
			bad++
		}
	}
	// Writers append at the moment they observe: a line may land a moment
	// after a later one of another process. Times order them; a day's
	// lines are all of that day, so the days in turn are in order.
	return inTimeOrder(out), bad, nil
}

// inTimeOrder sorts entries by time, those of one time in the order read.
// An entry is large, so the sort moves indices, and each entry once.
func inTimeOrder(entries []Entry) []Entry {
	if slices.IsSortedFunc(entries, func(a, b Entry) int { return a.T.Compare(b.T) }) {
		return entries
	}
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return entries[a].T.Compare(entries[b].T) })
	out := make([]Entry, len(entries))
	for i, j := range order {
		out[i] = entries[j]
	}
	return out
}

// Lookback is how far before a period its readers read the ledger: a
// state that began before the period (a session working since the evening
// before) is known at its start.
const Lookback = 48 * time.Hour

// ReadFor reads the entries a period [from, to) is told from: Read from
// Lookback before it.
func ReadFor(dir string, from, to time.Time) ([]Entry, int, error) {
	return Read(dir, from.Add(-Lookback), to)
}

// days lists one time in each local day from from to to.
func days(from, to time.Time) []time.Time {
	from, to = from.Local(), to.Local()
	start := time.Date(from.Year(), from.Month(), from.Day(), 12, 0, 0, 0, time.Local)
	var out []time.Time
	for d := start; !d.After(to) || sameDay(d, to); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
		if len(out) > 400 {
			break
		}
	}
	return out
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// Prune removes the day files of dir older than keep before now, then the
// oldest of the rest while they hold more than MaxTotal together (today's
// file is never removed). It returns how many it removed.
func Prune(dir string, now time.Time, keep time.Duration) (int, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("pruning the ledger: %w", err)
	}
	type dayOf struct {
		path string
		day  time.Time
		size int64
	}
	var files []dayOf
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".jsonl")
		day, err := time.ParseInLocation(dayLayout, name, time.Local)
		if !ok || err != nil || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, dayOf{filepath.Join(dir, e.Name()), day, fi.Size()})
	}
	slices.SortFunc(files, func(a, b dayOf) int { return a.day.Compare(b.day) })
	var total int64
	for _, f := range files {
		total += f.size
	}
	cutoff := now.Add(-keep)
	removed := 0
	var errs []error
	for i, f := range files {
		old := f.day.AddDate(0, 0, 1).Before(cutoff)
		if i == len(files)-1 || !old && total <= MaxTotal {
			break
		}
		if err := os.Remove(f.path); err != nil {
			errs = append(errs, err)
			continue
		}
		total -= f.size
		removed++
	}
	return removed, errors.Join(errs...)
}
