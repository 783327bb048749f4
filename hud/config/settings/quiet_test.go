package settings

import (
	"testing"
	"time"
)

func TestQuietHours(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 3, 1, h, m, 0, 0, time.UTC) }
	night, err := ParseQuietHours("22:00-08:00")
	if err != nil {
		t.Fatal(err)
	}
	lunch, err := ParseQuietHours(" 12:30 - 13:15 ")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q       QuietHours
		t       time.Time
		in      bool
		endsAt  time.Time
		comment string
	}{
		{night, at(21, 59), false, at(21, 59), "before"},
		{night, at(22, 0), true, at(8, 0).AddDate(0, 0, 1), "start is included"},
		{night, at(23, 30), true, at(8, 0).AddDate(0, 0, 1), "before midnight"},
		{night, at(3, 0), true, at(8, 0), "after midnight"},
		{night, at(8, 0), false, at(8, 0), "end is excluded"},
		{lunch, at(12, 45), true, at(13, 15), "same-day window"},
		{lunch, at(13, 15), false, at(13, 15), "same-day end"},
		{QuietHours{}, at(3, 0), false, at(3, 0), "none"},
	}
	for _, tt := range tests {
		if got := tt.q.Contains(tt.t); got != tt.in {
			t.Errorf("%s: %v.Contains(%v) = %v", tt.comment, tt.q, tt.t, got)
		}
		if got := tt.q.EndAfter(tt.t); !got.Equal(tt.endsAt) {
			t.Errorf("%s: %v.EndAfter(%v) = %v, want %v", tt.comment, tt.q, tt.t, got, tt.endsAt)
		}
	}
	if lunch.String() != "12:30-13:15" || (QuietHours{}).String() != "" {
		t.Errorf("String: %q %q", lunch.String(), QuietHours{}.String())
	}
	for _, bad := range []string{"22:00", "25:00-08:00", "22:60-08:00", "22:00-8", "aa:bb-cc:dd", "22:00-08:00x", "22:00-08:00-09:00"} {
		if _, err := ParseQuietHours(bad); err == nil {
			t.Errorf("ParseQuietHours(%q) accepted", bad)
		}
	}
	if q, err := ParseQuietHours("7:05-9:00"); err != nil || q.Start != 7*60+5 {
		t.Errorf("ParseQuietHours(7:05-9:00) = %+v, %v", q, err)
	}
}
