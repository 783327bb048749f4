package config

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/capacitor-hud/hud/hud/config/settings"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// Load reads the settings file at path and applies the VIBE_CHECK_*
// environment overrides read through getenv (nil: none). It never fails:
// a missing file gives the defaults silently; anything wrong gives the
// defaults for what it affects and a Problem for each thing to tell the
// person. Each read of an existing file also leaves the hook its copy of
// what was read (settings.WriteSnapshot), so that the hook never parses
// TOML.
func Load(path string, getenv func(string) string) (Config, []Problem) {
	cfg := Default()
	var problems []Problem
	// Bounded, and never blocking on a FIFO: the hook reads this file.
	data, _, err := safefile.Read(path, safefile.MaxRead, safefile.Follow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		problems = append(problems, Problem{Path: path,
			Message: fmt.Sprintf("cannot read the settings (%v); using the defaults", err)})
	default:
		problems = append(problems, decode(&cfg, path, string(data))...)
		if err := settings.WriteSnapshot(path, data, cfg); err != nil {
			problems = append(problems, Problem{Path: path,
				Message: fmt.Sprintf("cannot leave the hook a copy of the settings (%v); until one is written, the hook uses the copy it has or the defaults", err)})
		}
	}
	if getenv != nil {
		problems = append(problems, settings.ApplyEnv(&cfg, getenv)...)
	}
	return cfg, problems
}

// Parse reads settings from text, as Load does from a file named path
// (used in problems only). It applies no environment overrides.
func Parse(path, text string) (Config, []Problem) {
	cfg := Default()
	return cfg, decode(&cfg, path, text)
}

// decode fills cfg from text one key at a time, so a bad value costs only
// that key. Each value goes through a TextUnmarshaler (see value), which
// makes toml report the line of a bad value in a ParseError.
func decode(cfg *Config, path, text string) []Problem {
	if text == Template() {
		// The file as created, never edited: most people's. It parses
		// to exactly the defaults (see Template), which cfg holds already.
		return nil
	}
	text = blankCommentLines(text)
	var file map[string]toml.Primitive
	md, err := toml.Decode(text, &file)
	if err != nil {
		return []Problem{parseProblem(path, text, "", err, "the file is not valid TOML; using the defaults for every setting")}
	}
	known := make(map[string]map[string]setting)
	for _, s := range keys {
		if known[s.table] == nil {
			known[s.table] = make(map[string]setting)
		}
		known[s.table][s.key] = s
	}

	var problems []Problem
	for _, tableName := range sortedKeys(file) {
		keys, ok := known[tableName]
		if !ok {
			continue // reported by unknownKeys
		}
		if typ := md.Type(tableName); typ != "Hash" && typ != "" {
			problems = append(problems, Problem{Path: path, Key: tableName,
				Message: fmt.Sprintf("must be a table ([%s]); using the defaults for it", tableName)})
			continue
		}
		var table map[string]toml.Primitive
		if err := md.PrimitiveDecode(file[tableName], &table); err != nil {
			problems = append(problems, parseProblem(path, text, tableName, err,
				fmt.Sprintf("must be a table ([%s]); using the defaults for it", tableName)))
			continue
		}
		for _, key := range sortedKeys(table) {
			s, ok := keys[key]
			if !ok {
				continue // reported by unknownKeys
			}
			v := &value{s: s, cfg: cfg}
			if err := md.PrimitiveDecode(table[key], v); err != nil {
				def := Default()
				p := parseProblem(path, text, s.name(), err, "using the default "+s.formatValue(&def))
				if !errors.As(err, new(toml.ParseError)) {
					// A list or table where a value belongs: toml's own
					// message speaks of Go types; say what to write.
					p.Message = "must be " + s.expected() + "; using the default " + s.formatValue(&def)
				}
				problems = append(problems, p)
			}
		}
	}
	// Report in file order, as a person reads the file.
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	problems = append(problems, checkOrder(cfg, path)...)
	return append(problems, unknownKeys(md.Keys(), known, path)...)
}

// unknownKeys names, in file order, every table and key that is not a
// setting: most likely a typo the person wants to hear about. Deeper keys
// under an unknown one are not repeated.
func unknownKeys(keys []toml.Key, known map[string]map[string]setting, path string) []Problem {
	var out []Problem
	reported := map[string]bool{}
	for _, k := range keys {
		name := k[0]
		if table, ok := known[k[0]]; ok {
			if len(k) < 2 {
				continue
			}
			if _, ok := table[k[1]]; ok {
				continue
			}
			name = k[0] + "." + k[1]
		}
		if reported[name] {
			continue
		}
		reported[name] = true
		msg := "unknown setting; ignored (is it misspelled?)"
		if !strings.Contains(name, ".") {
			msg = "unknown setting or table; ignored (is it misspelled?)"
		}
		out = append(out, Problem{Path: path, Key: name, Message: msg})
	}
	return out
}

// blankCommentLines empties the lines that hold only a comment. The
// template is mostly comments, and toml's lexer reads them a rune at a
// time: this halves the parse. Lines are blanked, not removed, so line
// numbers in problems stay right. (A line starting with # inside a
// multi-line string would lose its text, but no setting takes one.)
func blankCommentLines(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for line := range strings.SplitAfterSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			if strings.HasSuffix(line, "\n") {
				b.WriteByte('\n')
			}
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// value decodes one setting into the Config, validating it first.
type value struct {
	s   setting
	cfg *Config
}

// UnmarshalText receives every TOML value (booleans and numbers too, as
// text): toml wraps an error from here into a ParseError with the line.
func (v *value) UnmarshalText(text []byte) error {
	t := string(text)
	switch dst := v.s.field(v.cfg).(type) {
	case *bool:
		b, err := strconv.ParseBool(t)
		if err != nil || (t != "true" && t != "false") {
			return fmt.Errorf("%q is not true or false", t)
		}
		*dst = b
	case *time.Duration:
		d, err := parseDuration(t, v.s.zeroOK)
		if err != nil {
			return err
		}
		*dst = d
	case *QuietHours:
		q, err := ParseQuietHours(t)
		if err != nil {
			return err
		}
		*dst = q
	case *string:
		if v.s.kind == kindChoice {
			if !slices.Contains(v.s.choices, t) {
				return fmt.Errorf("%q is not %s", t, choiceList(v.s.choices))
			}
			*dst = t
			break
		}
		if v.s.kind == kindText {
			if strings.ContainsFunc(t, unicode.IsControl) || len(t) > 1024 {
				return fmt.Errorf("%q is not one line of text", t)
			}
			*dst = t
			break
		}
		if err := checkURL(t); err != nil {
			return err
		}
		*dst = t
	case *Percent:
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("%q is not a whole number from 0 to 100", t)
		}
		*dst = Percent(n)
	}
	return nil
}

// parseDuration reads a Go duration string and rejects negative (and, for
// most keys, zero) durations.
func parseDuration(text string, zeroOK bool) (time.Duration, error) {
	d, err := time.ParseDuration(text)
	if days, ok := strings.CutSuffix(text, "d"); ok && err != nil {
		// Whole days, as people write a retention: "30d".
		if n, nerr := strconv.Atoi(days); nerr == nil && n >= 0 && n <= 3650 {
			d, err = time.Duration(n)*24*time.Hour, nil
		}
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration; write it like \"90s\", \"20m\", \"1h30m\" or \"30d\"", text)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", text)
	}
	if d == 0 && !zeroOK {
		return 0, fmt.Errorf("%q must be longer than zero", text)
	}
	return d, nil
}

// parseProblem turns a toml error into a Problem with a line number when
// toml knows one.
func parseProblem(path, text, key string, err error, consequence string) Problem {
	p := Problem{Path: path, Key: key}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		p.Line = pe.Position.Line
		// toml counts a newline that ends a line as the start of the next
		// ("[table" then newline is reported on the following line); the
		// byte offset is exact, so count lines from it.
		if start := pe.Position.Start; start > 0 && start <= len(text) {
			p.Line = 1 + strings.Count(text[:start], "\n")
		}
		msg := pe.Message
		if key == "" && pe.LastKey != "" {
			msg = fmt.Sprintf("%s (after key %s)", msg, pe.LastKey)
		}
		p.Message = msg + "; " + consequence
		return p
	}
	// Type mismatches come as plain errors "toml: line N (last key ...):".
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "toml: line "); ok {
		if n, after, ok := strings.Cut(rest, " "); ok {
			if line, convErr := strconv.Atoi(n); convErr == nil {
				p.Line = line
				if _, m, ok := strings.Cut(after, "): "); ok {
					msg = m
				}
			}
		}
	}
	p.Message = strings.TrimPrefix(msg, "toml: ") + "; " + consequence
	return p
}

// checkOrder keeps the work-session ladder increasing: 40 < 60 < 90
// minutes. Out of order, the three go back to their defaults together.
func checkOrder(cfg *Config, path string) []Problem {
	w := cfg.WorkSession
	if w.RemindAt < w.WarnAt && w.WarnAt < w.TimeoutAt {
		return nil
	}
	def := Default().WorkSession
	cfg.WorkSession.RemindAt, cfg.WorkSession.WarnAt, cfg.WorkSession.TimeoutAt = def.RemindAt, def.WarnAt, def.TimeoutAt
	return []Problem{{Path: path, Key: "work_session",
		Message: fmt.Sprintf("remind_at (%s) < warn_at (%s) < timeout_at (%s) does not hold; using the defaults %s, %s, %s",
			formatDuration(w.RemindAt), formatDuration(w.WarnAt), formatDuration(w.TimeoutAt),
			formatDuration(def.RemindAt), formatDuration(def.WarnAt), formatDuration(def.TimeoutAt))}}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
