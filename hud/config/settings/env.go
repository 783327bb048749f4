package settings

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// envOverrides are Vibe Check's environment variables, in seconds. They
// win over the file's [breaks] table so that a person who tuned Vibe Check
// keeps their settings when switching to the HUD.
var envOverrides = []struct {
	name  string
	field func(*Breaks) *time.Duration
}{
	{"VIBE_CHECK_MICRO_INTERVAL", func(b *Breaks) *time.Duration { return &b.MicroInterval }},
	{"VIBE_CHECK_FULL_INTERVAL", func(b *Breaks) *time.Duration { return &b.FullInterval }},
	{"VIBE_CHECK_HYDRATION_INTERVAL", func(b *Breaks) *time.Duration { return &b.HydrationInterval }},
	{"VIBE_CHECK_MICRO_BREAK_DURATION", func(b *Breaks) *time.Duration { return &b.MicroDuration }},
	{"VIBE_CHECK_FULL_BREAK_DURATION", func(b *Breaks) *time.Duration { return &b.FullDuration }},
	{"VIBE_CHECK_HYDRATION_BREAK_DURATION", func(b *Breaks) *time.Duration { return &b.HydrationDuration }},
	{"VIBE_CHECK_GAP_THRESHOLD", func(b *Breaks) *time.Duration { return &b.GapThreshold }},
	{"VIBE_CHECK_STALE_THRESHOLD", func(b *Breaks) *time.Duration { return &b.StaleThreshold }},
}

// ApplyEnv applies the set VIBE_CHECK_* variables to cfg.Breaks. A value
// that is not a positive number of seconds is ignored with a Problem.
func ApplyEnv(cfg *Config, getenv func(string) string) []Problem {
	var problems []Problem
	for _, o := range envOverrides {
		text := strings.TrimSpace(getenv(o.name))
		if text == "" {
			continue
		}
		secs, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs <= 0 || secs > 365*24*3600 {
			problems = append(problems, Problem{Key: o.name,
				Message: fmt.Sprintf("%q is not a positive number of seconds; ignored", text)})
			continue
		}
		*o.field(&cfg.Breaks) = time.Duration(secs * float64(time.Second))
	}
	return problems
}
