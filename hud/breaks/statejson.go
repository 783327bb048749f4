package breaks

import (
	"strconv"

	"github.com/capacitor-hud/hud/internal/jsonscan"
	"github.com/capacitor-hud/hud/resolver"
)

// The hook reads and writes the state file on every prompt and every end
// of an answer, in a fresh process, where encoding/json would first build
// its reflection caches for State. So the file as Vibe Check and hud write
// it is read and written by hand, held to encoding/json's results and
// bytes by tests that set every field; anything else (a key of another
// case, a null, a number of another form) goes through encoding/json.

// appendState appends s as json.MarshalIndent(s, "", "  ") writes it; ok
// is false for a value it cannot write (a time that is not a number).
func appendState(dst []byte, s State) (out []byte, ok bool) {
	out = append(dst, '{')
	sec := func(name string, v Seconds, last bool) {
		b, err := v.MarshalJSON()
		if err != nil {
			ok = false
		}
		out = appendKey(out, "\n  ", name)
		out = append(out, b...)
		if !last {
			out = append(out, ',')
		}
	}
	num := func(indent, name string, v int) {
		out = appendKey(out, indent, name)
		out = strconv.AppendInt(out, int64(v), 10)
	}
	ok = true
	sec("session_start", s.SessionStart, false)
	sec("last_micro", s.LastMicro, false)
	sec("last_full", s.LastFull, false)
	sec("last_hydration", s.LastHydration, false)
	num("\n  ", "reminder_count", s.ReminderCount)
	out = append(out, ',')
	sec("last_active", s.LastActive, false)
	sec("last_response_end", s.LastResponseEnd, false)
	out = appendKey(out, "\n  ", "pending_break")
	if p := s.PendingBreak; p == nil {
		out = append(out, "null"...)
	} else {
		out = appendKey(append(out, '{'), "\n    ", "type")
		out = resolver.AppendJSONString(out, p.Type)
		b, err := p.FiredAt.MarshalJSON()
		if err != nil {
			ok = false
		}
		out = appendKey(append(out, ','), "\n    ", "fired_at")
		out = append(append(out, b...), "\n  }"...)
	}
	out = appendKey(append(out, ','), "\n  ", "tip_index")
	out = append(out, '{')
	num("\n    ", "micro_break", s.TipIndex.MicroBreak)
	out = append(out, ',')
	num("\n    ", "full_break", s.TipIndex.FullBreak)
	out = append(out, ',')
	num("\n    ", "hydration", s.TipIndex.Hydration)
	out = append(out, "\n  },"...)
	sec("last_reminder_fired_at", s.LastReminderFiredAt, true)
	return append(out, "\n}"...), ok
}

func appendKey(out []byte, indent, name string) []byte {
	out = append(out, indent...)
	out = append(out, '"')
	out = append(out, name...)
	return append(out, `": `...)
}

// decodeStateFast reads the state file by hand, as DecodeState would, or
// reports false for what it leaves to encoding/json.
func decodeStateFast(data []byte) (State, bool) {
	var st State
	s := jsonscan.New(data)
	seen := 0 // bit i: RequiredKeys[i] seen, not null
	required := func(i int, v *Seconds) error {
		seen |= 1 << i
		return seconds(s, v)
	}
	err := s.Object(func(key string) error {
		switch key {
		case "session_start":
			return required(0, &st.SessionStart)
		case "last_micro":
			return required(1, &st.LastMicro)
		case "last_full":
			return required(2, &st.LastFull)
		case "last_hydration":
			return required(3, &st.LastHydration)
		case "reminder_count":
			seen |= 1 << 4
			return integer(s, &st.ReminderCount)
		case "last_active":
			return required(5, &st.LastActive)
		case "last_response_end":
			return required(6, &st.LastResponseEnd)
		case "pending_break":
			if s.Null() {
				st.PendingBreak = nil
				return nil
			}
			if st.PendingBreak != nil {
				return jsonscan.ErrFallback // a repeated key: encoding/json merges
			}
			p := &PendingBreak{}
			st.PendingBreak = p
			return s.Object(func(key string) error {
				switch key {
				case "type":
					return s.String(&p.Type)
				case "fired_at":
					return seconds(s, &p.FiredAt)
				}
				return jsonscan.ErrFallback
			})
		case "tip_index":
			return s.Object(func(key string) error {
				switch key {
				case "micro_break":
					return integer(s, &st.TipIndex.MicroBreak)
				case "full_break":
					return integer(s, &st.TipIndex.FullBreak)
				case "hydration":
					return integer(s, &st.TipIndex.Hydration)
				}
				return jsonscan.ErrFallback
			})
		case "last_reminder_fired_at":
			return seconds(s, &st.LastReminderFiredAt)
		}
		return jsonscan.ErrFallback
	})
	if err != nil || !s.End() || seen != 1<<len(RequiredKeys)-1 {
		return State{}, false
	}
	return st, true
}

// seconds reads a number as Seconds.UnmarshalJSON does.
func seconds(s *jsonscan.Scanner, v *Seconds) error {
	raw, err := s.Value()
	if err != nil || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return jsonscan.ErrFallback
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return jsonscan.ErrFallback
	}
	*v = Seconds(f)
	return nil
}

func integer(s *jsonscan.Scanner, v *int) error {
	n, err := s.Int(strconv.IntSize)
	*v = int(n)
	return err
}
