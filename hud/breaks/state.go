package breaks

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// State is Vibe Check's state file, field for field and in its key order
// (fields), so either program can read the other's file. Times are Unix seconds as floats, the way Python's
// time.time() wrote them.
type State struct {
	SessionStart        Seconds
	LastMicro           Seconds
	LastFull            Seconds
	LastHydration       Seconds
	ReminderCount       int
	LastActive          Seconds
	LastResponseEnd     Seconds
	PendingBreak        *PendingBreak
	TipIndex            TipIndex
	LastReminderFiredAt Seconds
}

// PendingBreak is a reminder that fired and waits for the compliance check
// on the next prompt.
type PendingBreak struct {
	Type    string // "micro", "hydration" or "full"
	FiredAt Seconds
}

// TipIndex rotates through each category's tips.
type TipIndex struct {
	MicroBreak int
	FullBreak  int
	Hydration  int
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

// fields lists the file's keys in Vibe Check's order; RequiredKeys are
// required.
func (s *State) fields() []jsonfields.Field {
	f := []jsonfields.Field{
		jsonfields.Value("session_start", &s.SessionStart),
		jsonfields.Value("last_micro", &s.LastMicro),
		jsonfields.Value("last_full", &s.LastFull),
		jsonfields.Value("last_hydration", &s.LastHydration),
		jsonfields.Int("reminder_count", &s.ReminderCount),
		jsonfields.Value("last_active", &s.LastActive),
		jsonfields.Value("last_response_end", &s.LastResponseEnd),
		jsonfields.Pointer("pending_break", &s.PendingBreak, func(p *PendingBreak) []jsonfields.Field {
			return []jsonfields.Field{jsonfields.String("type", &p.Type), jsonfields.Value("fired_at", &p.FiredAt)}
		}),
		jsonfields.Object("tip_index", &s.TipIndex, func(t *TipIndex) []jsonfields.Field {
			return []jsonfields.Field{
				jsonfields.Int("micro_break", &t.MicroBreak),
				jsonfields.Int("full_break", &t.FullBreak),
				jsonfields.Int("hydration", &t.Hydration),
			}
		}),
		jsonfields.Value("last_reminder_fired_at", &s.LastReminderFiredAt),
	}
	for i := range f {
		if slices.Contains(RequiredKeys, f[i].Name()) {
			f[i] = f[i].Required()
		}
	}
	return f
}

// DecodeState parses a state file. Like Vibe Check's load_state, it
// rejects invalid JSON and a missing required key; it also rejects a value
// of the wrong type, which Python would only have tripped over later. The
// caller replaces a rejected file with [Fresh].
func DecodeState(data []byte) (State, error) {
	var s State
	if err := jsonfields.Decode(data, s.fields()...); err != nil {
		return State{}, fmt.Errorf("break state: %w", err)
	}
	return s, nil
}

// Encode writes s the way Python's json.dump(state, f, indent=2) did.
func (s State) Encode() []byte {
	data, err := jsonfields.Append(nil, "", "  ", s.fields()...)
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

// UnmarshalJSON accepts any JSON number. Null leaves s as it was, as
// encoding/json leaves a number.
func (s *Seconds) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	// ParseFloat would also take "Inf" and "0x1p3", which are not JSON.
	if len(b) == 0 || b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return fmt.Errorf("seconds: %s is not a number", b)
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("seconds: %s is not a number", b)
	}
	*s = Seconds(f)
	return nil
}
