package text

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-5 * time.Second, "0s"},
		{0, "0s"},
		{999 * time.Millisecond, "0s"},
		{40 * time.Second, "40s"},
		{59*time.Second + 999*time.Millisecond, "59s"},
		{time.Minute, "1m"},
		{2*time.Minute + 59*time.Second, "2m"},
		{90 * time.Minute, "1h 30m"},
		{time.Hour, "1h"},
		{time.Hour + 5*time.Minute, "1h 5m"},
		{23*time.Hour + 59*time.Minute, "23h 59m"},
		{24 * time.Hour, "1d"},
		{26*time.Hour + time.Minute, "1d 2h"},
		{80 * time.Hour, "3d 8h"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestAge(t *testing.T) {
	tests := []struct {
		age   time.Duration
		label string
		next  time.Duration
	}{
		{0, "now", 10 * time.Second},
		{9999 * time.Millisecond, "now", time.Millisecond},
		{10 * time.Second, "10s", 10 * time.Second},
		{59 * time.Second, "50s", time.Second},
		{time.Minute, "1m", time.Minute},
		{59*time.Minute + 30*time.Second, "59m", 30 * time.Second},
		{time.Hour + 5*time.Minute, "1h 5m", time.Minute},
		{26 * time.Hour, "1d 2h", time.Hour},
		{-3 * time.Second, "now", 3 * time.Second},
	}
	for _, tt := range tests {
		if got := Age(tt.age); got != tt.label {
			t.Errorf("Age(%v) = %q, want %q", tt.age, got, tt.label)
		}
		if got := UntilAgeChanges(tt.age); got != tt.next {
			t.Errorf("UntilAgeChanges(%v) = %v, want %v", tt.age, got, tt.next)
		}
		// The label must really change at the announced moment, and not before.
		if tt.age >= 0 {
			at := tt.age + UntilAgeChanges(tt.age)
			if Age(at) == Age(tt.age) || Age(at-time.Millisecond) != Age(tt.age) {
				t.Errorf("label of %v changes elsewhere than at %v", tt.age, at)
			}
		}
	}
}
