package breaks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// State is Vibe Check's state file, field for field and in its key order,
// so either program can read the other's file. Times are Unix seconds as floats, the way Python's
// time.time() wrote them.
type State struct {
	SessionStart        Seconds       `json:"session_start"`
	LastMicro           Seconds       `json:"last_micro"`
	LastFull            Seconds       `json:"last_full"`
	LastHydration       Seconds       `json:"last_hydration"`
	ReminderCount       int           `json:"reminder_count"`
	LastActive          Seconds       `json:"last_active"`
	LastResponseEnd     Seconds       `json:"last_response_end"`
	PendingBreak        *PendingBreak `json:"pending_break"`
	TipIndex            TipIndex      `json:"tip_index"`
	LastReminderFiredAt Seconds       `json:"last_reminder_fired_at"`
}

// PendingBreak is a reminder that fired and waits for the compliance check
// on the next prompt.
type PendingBreak struct {
	Type    string  `json:"type"` // "micro", "hydration" or "full"
	FiredAt Seconds `json:"fired_at"`
}

// TipIndex rotates through each category's tips.
type TipIndex struct {
	MicroBreak int `json:"micro_break"`
	FullBreak  int `json:"full_break"`
	Hydration  int `json:"hydration"`
}

// RequiredKeys are Vibe Check's REQUIRED_KEYS: a file missing any of them
// is corrupt and replaced with a fresh state.
var RequiredKeys = []string{"session_start", "last_micro", "last_full", "last_hydration",
	"reminder_count", "last_active", "last_response_end"}

// Fresh is Vibe Check's fresh_state(): every timer set to now.
func Fresh(now time.Time) State {
	t := SecondsOf(now)
	return State{
		SessionStart:    t,
		LastMicro:       t,
		LastFull:        t,
		LastHydration:   t,
		LastActive:      t,
		LastResponseEnd: t,
	}
}

// last returns the timer of kind k.
func (s *State) last(k Kind) *Seconds {
	switch k {
	case Hydration:
		return &s.LastHydration
	case Full:
		return &s.LastFull
	}
	return &s.LastMicro
}

// tipIndex returns the tip rotation counter of kind k.
func (s *State) tipIndex(k Kind) *int {
	switch k {
	case Hydration:
		return &s.TipIndex.Hydration
	case Full:
		return &s.TipIndex.FullBreak
	}
	return &s.TipIndex.MicroBreak
}

// DecodeState parses a state file. Like Vibe Check's load_state, it
// rejects invalid JSON and a missing required key; it also rejects a value
// of the wrong type, which Python would only have tripped over later. The
// caller replaces a rejected file with [Fresh].
func DecodeState(data []byte) (State, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return State{}, fmt.Errorf("break state: %w", err)
	}
	for _, k := range RequiredKeys {
		if v, ok := keys[k]; !ok || bytes.Equal(v, []byte("null")) {
			return State{}, fmt.Errorf("break state: missing %q", k)
		}
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, fmt.Errorf("break state: %w", err)
	}
	return s, nil
}

// Encode writes s the way Python's json.dump(state, f, indent=2) did.
func (s State) Encode() []byte {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("breaks: encoding state: %v", err)) // only numbers and strings
	}
	return append(data, '\n')
}

// Seconds is a Unix time in seconds, stored as a JSON float.
type Seconds float64

// SecondsOf converts t.
func SecondsOf(t time.Time) Seconds {
	if t.IsZero() {
		return 0
	}
	return Seconds(float64(t.UnixNano()) / 1e9)
}

// Time converts s back; zero stays the zero time.
func (s Seconds) Time() time.Time {
	if s == 0 {
		return time.Time{}
	}
	sec, frac := math.Modf(float64(s))
	return time.Unix(int64(sec), int64(math.Round(frac*1e9)))
}

// MarshalJSON writes a float the way Python does: 1709486400.0, not
// 1709486400, so the file reads the same to both.
func (s Seconds) MarshalJSON() ([]byte, error) {
	f := float64(s)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("seconds: %v is not a time", f)
	}
	if f == 0 {
		return []byte("0"), nil // fresh_state's last_reminder_fired_at
	}
	b := strconv.AppendFloat(nil, f, 'f', -1, 64)
	if !bytes.ContainsRune(b, '.') {
		b = append(b, ".0"...)
	}
	return b, nil
}

// UnmarshalJSON accepts any JSON number.
func (s *Seconds) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("seconds: %s is not a number", b)
	}
	*s = Seconds(f)
	return nil
}
