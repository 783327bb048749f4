package proc

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestBootTime: the boot time from the clocks is /proc/stat's btime, give
// or take the second either may move by.
func TestBootTime(t *testing.T) {
	got, err := bootTime()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Skip(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			want, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if d := got - want; d < -startedSlack || d > startedSlack {
				t.Fatalf("boot time %d, /proc/stat says %d", got, want)
			}
			return
		}
	}
	t.Fatal("no btime in /proc/stat")
}

func TestParseStat(t *testing.T) {
	boot, err := bootTime()
	if err != nil {
		t.Fatal(err)
	}
	// Fields 7 to 21 (tty ... itrealvalue), starttime (22), then the rest.
	tail := " 34817 1 4194560 100 0 0 0 5 3 0 0 20 0 12 0 12345 1000 100 rest"
	for _, tt := range []struct {
		name    string
		stat    string
		want    Process
		gone    bool
		wantErr bool
	}{
		{name: "plain", stat: "42 (claude) S 7 1 1" + tail,
			want: Process{PID: 42, PPID: 7, Comm: "claude", StartTicks: 12345, Started: boot + 123}},
		{name: "spaces and parens in name", stat: "42 (a) b (c) R 9 1 1" + tail,
			want: Process{PID: 42, PPID: 9, Comm: "a) b (c", StartTicks: 12345, Started: boot + 123}},
		{name: "empty name", stat: "42 () S 1 1 1" + tail,
			want: Process{PID: 42, PPID: 1, Comm: "", StartTicks: 12345, Started: boot + 123}},
		{name: "zombie", stat: "42 (claude) Z 7 1 1" + tail, gone: true},
		{name: "dead", stat: "42 (claude) X 7 1 1" + tail, gone: true},
		{name: "no parens", stat: "42 claude S 7", wantErr: true},
		{name: "short", stat: "42 (claude) S 7 1 1", wantErr: true},
		{name: "bad ppid", stat: "42 (claude) S x 1 1" + tail, wantErr: true},
		{name: "bad start", stat: "42 (claude) S 7 1 1 34817 1 4194560 100 0 0 0 5 3 0 0 20 0 12 0 later 1000", wantErr: true},
		{name: "empty", stat: "", wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStat(42, []byte(tt.stat))
			switch {
			case tt.gone:
				if !errors.Is(err, ErrNoProcess) {
					t.Errorf("err = %v, want ErrNoProcess", err)
				}
			case tt.wantErr:
				if err == nil || errors.Is(err, ErrNoProcess) {
					t.Errorf("err = %v, want a parse error", err)
				}
			case err != nil:
				t.Errorf("err = %v", err)
			case got != tt.want:
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
