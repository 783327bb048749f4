package e2e

import (
	"testing"
	"time"
)

// look is a sample in TestSoakVerdict's shorthand: at ms, Claude's status
// (changed at sinceMs), hud's state.
type look struct {
	ms, sinceMs int
	claude, hud string
}

func soakTrack(proc string, looks ...look) []soakSample {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var out []soakSample
	for _, l := range looks {
		out = append(out, soakSample{at: at(l.ms), proc: proc, claude: l.claude, claudeSince: at(l.sinceMs), hud: l.hud, screen: "prompt"})
	}
	return out
}

func TestSoakVerdict(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	steps := []soakStep{{at: t0.Add(900 * time.Millisecond), proc: "main", name: "Esc"}, {at: t0.Add(950 * time.Millisecond), proc: "b", name: "elsewhere"}}
	cases := []struct {
		name       string
		samples    []soakSample
		late       int
		over1s     int
		longest    time.Duration // the longest disagreement
		flickers   int
		lags       map[string]time.Duration // kind → p50
		missed     int
		stepBefore string // of the longest disagreement
		kind       string // of the longest disagreement
	}{
		{
			name: "hud follows at the next sample",
			samples: soakTrack("main",
				look{0, 0, "idle", "ready"}, look{250, 0, "idle", "ready"},
				look{500, 400, "busy", "working"}, look{750, 400, "busy", "working"},
				look{1000, 900, "idle", "working"}, look{1250, 900, "idle", "ready"}),
			lags:    map[string]time.Duration{"idle→busy": 100 * time.Millisecond, "busy→idle": 350 * time.Millisecond},
			longest: 350 * time.Millisecond, stepBefore: "Esc",
		},
		{
			name: "hud two seconds behind an Esc",
			samples: soakTrack("main",
				look{0, 0, "busy", "working"}, look{250, 0, "busy", "working"},
				look{1000, 950, "idle", "working"}, look{1500, 950, "idle", "working"},
				look{2000, 950, "idle", "working"}, look{2500, 950, "idle", "working"},
				look{3000, 950, "idle", "ready"}),
			// 2000, 2500 ms are over a second after the change at 950.
			late: 2, over1s: 1, longest: 2050 * time.Millisecond, stepBefore: "Esc", kind: "hud behind",
			lags: map[string]time.Duration{"busy→idle": 2050 * time.Millisecond},
		},
		{
			name: "hud ready on Stop before Claude says idle: ahead, not late",
			samples: soakTrack("main",
				look{0, 0, "busy", "working"}, look{250, 0, "busy", "ready"},
				look{1000, 0, "busy", "ready"}, look{1500, 0, "busy", "ready"},
				look{1750, 1700, "idle", "ready"}),
			over1s: 1, longest: 1500 * time.Millisecond, stepBefore: "(start)", kind: "hud ahead",
			lags: map[string]time.Duration{"busy→idle": 50 * time.Millisecond},
		},
		{
			name: "hud away and back while Claude held: wrong",
			samples: soakTrack("main",
				look{0, 0, "busy", "working"}, look{250, 0, "busy", "ready"},
				look{1000, 0, "busy", "ready"}, look{1500, 0, "busy", "working"}),
			over1s: 1, longest: 1250 * time.Millisecond, stepBefore: "(start)", kind: "hud wrong",
		},
		{
			name: "compacting is busy",
			samples: soakTrack("main",
				look{0, 0, "busy", "working"}, look{250, 0, "busy", "compacting"},
				look{500, 0, "busy", "compacting"}, look{750, 0, "busy", "compacting"}),
		},
		{
			name: "a state shown for one sample while Claude held: a flicker",
			samples: soakTrack("main",
				look{0, 0, "busy", "working"}, look{250, 0, "busy", "ready"},
				look{500, 0, "busy", "working"}, look{750, 0, "busy", "working"}),
			flickers: 1, longest: 250 * time.Millisecond, stepBefore: "(start)", kind: "hud wrong",
		},
		{
			name: "Claude's own state shown briefly between two others is no flicker",
			samples: soakTrack("main",
				look{0, 0, "idle", "working"}, look{250, 0, "idle", "ready"},
				look{500, 0, "idle", "working"}, look{750, 0, "idle", "working"}),
			longest: 250 * time.Millisecond, stepBefore: "(start)",
		},
		{
			name: "a short state that follows Claude's is no flicker",
			samples: soakTrack("main",
				look{0, 0, "busy", "working"}, look{250, 200, "waiting", "waiting"},
				look{500, 450, "busy", "working"}, look{750, 450, "busy", "working"}),
			lags: map[string]time.Duration{"busy→waiting": 50 * time.Millisecond, "waiting→busy": 50 * time.Millisecond},
		},
		{
			name: "Claude back before hud followed: missed, not late",
			samples: soakTrack("main",
				look{0, 0, "idle", "ready"}, look{250, 200, "busy", "ready"},
				look{500, 450, "idle", "ready"}, look{750, 450, "idle", "ready"}),
			missed: 1, lags: map[string]time.Duration{"busy→idle": 50 * time.Millisecond},
			longest: 300 * time.Millisecond, stepBefore: "(start)",
		},
		{
			name: "an unknown sample ends a disagreement",
			samples: soakTrack("main",
				look{0, 0, "idle", "absent"}, look{1500, 0, "idle", "absent"},
				look{1750, 0, "", "absent"}, look{2000, 0, "idle", "absent"}),
			late: 1, over1s: 1, longest: 1500 * time.Millisecond, stepBefore: "(start)",
		},
		{
			name: "two processes judged apart",
			samples: append(soakTrack("a", look{0, 0, "idle", "ready"}, look{250, 0, "idle", "ready"}),
				soakTrack("b", look{0, 0, "busy", "working"}, look{250, 0, "busy", "working"})...),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := judgeSoak(c.samples, steps)
			if v.late != c.late {
				t.Errorf("late samples %d, want %d", v.late, c.late)
			}
			if n := len(v.longerThan(soakLateAfter)); n != c.over1s {
				t.Errorf("disagreements over 1 s: %d, want %d (%+v)", n, c.over1s, v.disagreements)
			}
			var longest soakDisagreement
			for _, d := range v.disagreements {
				if d.length > longest.length {
					longest = d
				}
			}
			if longest.length != c.longest || c.longest > 0 && longest.step.name != c.stepBefore {
				t.Errorf("longest disagreement %v after %q, want %v after %q", longest.length, longest.step.name, c.longest, c.stepBefore)
			}
			if c.kind != "" && longest.kind() != c.kind {
				t.Errorf("longest disagreement is %q, want %q", longest.kind(), c.kind)
			}
			if len(v.flickers) != c.flickers {
				t.Errorf("flickers %+v, want %d", v.flickers, c.flickers)
			}
			missed := 0
			got := map[string]time.Duration{}
			for _, row := range v.lagByKind() {
				missed += row.missed
				if row.count > 0 {
					got[row.kind] = row.p50
				}
			}
			if missed != c.missed {
				t.Errorf("missed changes %d, want %d", missed, c.missed)
			}
			if len(got) != len(c.lags) {
				t.Errorf("lags %v, want %v", got, c.lags)
			}
			for kind, want := range c.lags {
				if got[kind] != want {
					t.Errorf("lag %s: %v, want %v", kind, got[kind], want)
				}
			}
		})
	}
}
