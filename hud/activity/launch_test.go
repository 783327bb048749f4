package activity

import (
	"reflect"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/lockholder"
)

var goodLaunch = Launch{
	Exe:        "/usr/local/bin/hud-hook",
	Job:        Job{Home: "/home/ann", SessionID: "5c0ffee0-1111-4222-8333-944445555666", Kind: JobCheckpoint, Reason: ReasonStop},
	Path:       "/usr/local/bin:/usr/bin:/bin",
	ConfigHome: "/home/ann/.config",
}

const goodEncoded = "hud-activity-launch 1\n/usr/local/bin/hud-hook\n/home/ann\n5c0ffee0-1111-4222-8333-944445555666\ncheckpoint\nStop hook\n/usr/local/bin:/usr/bin:/bin\n/home/ann/.config\n"

func TestLaunchRoundTrip(t *testing.T) {
	for _, l := range []Launch{
		goodLaunch,
		{Exe: "/h", Job: Job{Home: "/", SessionID: "s", Kind: JobScan}},
		{Exe: "/h", Job: Job{Home: "/", SessionID: "s", Kind: JobHandoff}, Path: "", ConfigHome: "/x y"},
	} {
		b, err := l.Encode()
		if err != nil {
			t.Fatalf("Encode(%+v): %v", l, err)
		}
		got, err := DecodeLaunch(b)
		if err != nil || got != l {
			t.Errorf("DecodeLaunch(Encode(%+v)) = %+v, %v", l, got, err)
		}
	}
	if b, _ := goodLaunch.Encode(); string(b) != goodEncoded {
		t.Errorf("Encode = %q, want %q", b, goodEncoded)
	}
}

func TestDecodeLaunchRejects(t *testing.T) {
	lines := strings.SplitAfter(goodEncoded, "\n")
	with := func(i int, v string) string {
		c := append([]string(nil), lines...)
		c[i] = v + "\n"
		return strings.Join(c, "")
	}
	for _, tt := range []struct{ name, in string }{
		{"empty", ""},
		{"another header", with(0, "hud-activity-launch")},
		{"another version", with(0, "hud-activity-launch 2")},
		{"a line missing", strings.Join(lines[:7], "")},
		{"a line more", goodEncoded + "x\n"},
		{"the last line not ended", strings.TrimSuffix(goodEncoded, "\n")},
		{"bytes after the last line", goodEncoded + "x"},
		{"a relative executable", with(1, "hud-hook")},
		{"no executable", with(1, "")},
		{"a relative home", with(2, "home/ann")},
		{"no session", with(3, "")},
		{"an unknown job", with(4, "rm")},
		{"a NUL", with(5, "Stop\x00hook")},
		{"CRLF", strings.ReplaceAll(goodEncoded, "\n", "\r\n")},
		{"too long", with(6, strings.Repeat("/bin:", lockholder.MaxJob/5))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if l, err := DecodeLaunch([]byte(tt.in)); err == nil {
				t.Errorf("DecodeLaunch(%.80q) = %+v, want an error", tt.in, l)
			}
		})
	}
}

func TestEncodeRefusesWhatItCannotCarry(t *testing.T) {
	for name, change := range map[string]func(*Launch){
		"a newline in the home": func(l *Launch) { l.Job.Home = "/home/a\nb" },
		"a relative executable": func(l *Launch) { l.Exe = "hud-hook" },
		"an unknown job":        func(l *Launch) { l.Job.Kind = "" },
		"a PATH over the limit": func(l *Launch) { l.Path = strings.Repeat("/bin:", lockholder.MaxJob/5) },
	} {
		l := goodLaunch
		change(&l)
		if b, err := l.Encode(); err == nil {
			t.Errorf("%s: Encode = %q, want an error", name, b)
		}
	}
}

// FuzzDecodeLaunch: whatever arrives, decoding never panics, and what it
// accepts is exactly what Encode writes for the launch it decoded to.
func FuzzDecodeLaunch(f *testing.F) {
	f.Add([]byte(goodEncoded))
	f.Add([]byte("hud-activity-launch 1\n/h\n/\ns\nscan\n\n\n\n"))
	f.Add([]byte("hud-activity-launch 1\n\n\n\n\n\n\n\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := DecodeLaunch(b)
		if err != nil {
			return
		}
		again, err := l.Encode()
		if err != nil {
			t.Fatalf("decoded %+v from %q, which Encode refuses: %v", l, b, err)
		}
		if string(again) != string(b) {
			t.Fatalf("decoded %q, encoded back %q", b, again)
		}
		if back, err := DecodeLaunch(again); err != nil || !reflect.DeepEqual(back, l) {
			t.Fatalf("round trip of %+v: %+v, %v", l, back, err)
		}
	})
}
