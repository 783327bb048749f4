package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTemplateParsesToDefaults(t *testing.T) {
	// As created (the fast path) and as parsed: a trailing edit makes Load
	// read it for real.
	for _, text := range []string{Template(), Template() + "\n# edited\n"} {
		cfg, problems := Parse("config.toml", text)
		if len(problems) != 0 {
			t.Fatalf("the template has problems: %v", problems)
		}
		if !reflect.DeepEqual(cfg, Default()) {
			t.Errorf("the template parses to\n%+v\nwant the defaults\n%+v", cfg, Default())
		}
	}
}

func TestEditedTemplateKeepsLineNumbers(t *testing.T) {
	text := strings.Replace(Template(), `full_interval = "50m"`, `full_interval = "fifty"`, 1)
	want := 1 + strings.Count(text[:strings.Index(text, "full_interval")], "\n")
	_, problems := Parse("config.toml", text)
	if len(problems) != 1 || problems[0].Line != want {
		t.Errorf("problems = %v, want one on line %d", problems, want)
	}
}

func TestBlankCommentLines(t *testing.T) {
	in := "# a\n  # b\nkey = \"#x\" # c\n\t#d"
	want := "\n\nkey = \"#x\" # c\n"
	if got := blankCommentLines(in); got != want {
		t.Errorf("blankCommentLines = %q, want %q", got, want)
	}
}

func TestTemplateDocumentsEveryKey(t *testing.T) {
	tmpl := Template()
	for _, s := range keys {
		if !strings.Contains(tmpl, "\n"+s.key+" = ") || !strings.Contains(tmpl, "# "+s.why+"\n"+s.key+" = ") {
			t.Errorf("template lacks %s with its comment", s.name())
		}
	}
	for _, tb := range tables {
		if !strings.Contains(tmpl, "\n["+tb.name+"]\n") {
			t.Errorf("template lacks table [%s]", tb.name)
		}
	}
}

// TestEverySettingIsDistinct guards the registry: each setting must point
// at its own field, or one key would silently set another's value.
func TestEverySettingIsDistinct(t *testing.T) {
	var c Config
	seen := map[any]string{}
	for _, s := range keys {
		p := s.field(&c)
		if other, dup := seen[p]; dup {
			t.Errorf("%s and %s fill the same field", s.name(), other)
		}
		seen[p] = s.name()
	}
	if got, want := len(seen), countLeafFields(reflect.TypeOf(c)); got != want {
		t.Errorf("%d settings for %d fields of Config: every field needs a key", got, want)
	}
}

func countLeafFields(t reflect.Type) int {
	n := 0
	for i := range t.NumField() {
		f := t.Field(i).Type
		if f.Kind() == reflect.Struct && f != reflect.TypeOf(QuietHours{}) {
			n += countLeafFields(f)
		} else {
			n++
		}
	}
	return n
}

func TestParse(t *testing.T) {
	def := Default()
	tests := []struct {
		name     string
		text     string
		change   func(*Config)
		problems []string // substrings, one per problem, in order
	}{
		{name: "empty file", text: ""},
		{
			name: "values",
			text: `
[notifications]
permission = false
still_waiting_after = "5m"
done_after_turn = "1m30s"
[tray]
show_title = false
[breaks]
micro_interval = "10s"
quiet_hours = "22:00-08:00"
[work_session]
remind_at = "1m"
warn_at = "2m"
timeout_at = "3m"
strict = true
[activity]
checkpoint_every = "0s"
`,
			change: func(c *Config) {
				c.Notifications.Permission = false
				c.Notifications.StillWaitingAfter = 5 * time.Minute
				c.Notifications.DoneAfterTurn = 90 * time.Second
				c.Tray.ShowTitle = false
				c.Breaks.MicroInterval = 10 * time.Second
				c.Breaks.QuietHours = QuietHours{Start: 22 * 60, End: 8 * 60, Set: true}
				c.WorkSession.RemindAt, c.WorkSession.WarnAt, c.WorkSession.TimeoutAt = time.Minute, 2*time.Minute, 3*time.Minute
				c.WorkSession.Strict = true
				c.Activity.CheckpointEvery = 0
			},
		},
		{
			name:     "broken file names the line and keeps every default",
			text:     "[breaks]\nmicro_interval = \"10s\"\nfull_interval = \n",
			problems: []string{"config.toml:3: "},
		},
		{
			name:     "unclosed table header",
			text:     "[notifications\npermission = false\n",
			problems: []string{"config.toml:1: "},
		},
		{
			name:     "negative duration keeps that key's default only",
			text:     "[breaks]\nmicro_interval = \"-5m\"\nfull_interval = \"40m\"\n",
			change:   func(c *Config) { c.Breaks.FullInterval = 40 * time.Minute },
			problems: []string{`config.toml:2: breaks.micro_interval: "-5m" is negative; using the default "20m"`},
		},
		{
			name:     "zero where zero means nothing",
			text:     "[breaks]\nfull_duration = \"0s\"\n",
			problems: []string{`config.toml:2: breaks.full_duration: "0s" must be longer than zero`},
		},
		{
			name:     "zero turns the reminder off",
			text:     "[notifications]\nstill_waiting_after = \"0s\"\n",
			change:   func(c *Config) { c.Notifications.StillWaitingAfter = 0 },
			problems: nil,
		},
		{
			name:   "thresholds in percent, zero turning one off",
			text:   "[notifications]\ncontext_at = 70\nusage_at = 0\n",
			change: func(c *Config) { c.Notifications.ContextAt, c.Notifications.UsageAt = 70, 0 },
		},
		{
			name:     "a threshold out of range keeps its default",
			text:     "[notifications]\ncontext_at = 101\nusage_at = \"80%\"\n",
			problems: []string{`config.toml:2: notifications.context_at: "101" is not a whole number from 0 to 100`, `config.toml:3: notifications.usage_at: "80%" is not a whole number from 0 to 100`},
		},
		{
			name:   "the push may send the subject",
			text:   "[notifications]\npush_detail = \"subject\"\n",
			change: func(c *Config) { c.Notifications.PushDetail = PushSubject },
		},
		{
			name:     "a push detail that is not one of its values keeps the default",
			text:     "[notifications]\npush_detail = \"everything\"\n",
			problems: []string{`config.toml:2: notifications.push_detail: "everything" is not "session" or "subject"; using the default "session"`},
		},
		{
			name:     "values are written as the template writes them",
			text:     "[notifications]\npush_detail = \"Subject\"\n",
			problems: []string{`config.toml:2: notifications.push_detail: "Subject" is not "session" or "subject"`},
		},
		{
			name:     "a list where a choice belongs",
			text:     "[notifications]\npush_detail = [\"subject\"]\n",
			problems: []string{`config.toml:2: notifications.push_detail: must be "session" or "subject"; using the default "session"`},
		},
		{
			name:     "duration without unit",
			text:     "[notifications]\n\nstill_waiting_after = 120\n",
			problems: []string{`config.toml:3: notifications.still_waiting_after: "120" is not a duration`},
		},
		{
			name:     "bool as string",
			text:     "[notifications]\ndone = \"yes\"\n",
			problems: []string{`config.toml:2: notifications.done: "yes" is not true or false; using the default true`},
		},
		{
			name:     "malformed quiet hours",
			text:     "[breaks]\nquiet_hours = \"22-8\"\n",
			problems: []string{`config.toml:2: breaks.quiet_hours: quiet hours "22-8"`},
		},
		{
			name:     "quiet hours that are never",
			text:     "[breaks]\nquiet_hours = \"08:00-08:00\"\n",
			problems: []string{"start and end are the same time"},
		},
		{
			name:   "empty quiet hours mean none",
			text:   "[breaks]\nquiet_hours = \"\"\n",
			change: func(c *Config) {},
		},
		{
			name: "unknown keys are named, the rest applies",
			text: "colour = \"red\"\n[breaks]\nmicro_intervall = \"1m\"\nfull_interval = \"1h\"\n[brakes]\nx = 1\n",
			change: func(c *Config) {
				c.Breaks.FullInterval = time.Hour
			},
			problems: []string{
				"config.toml: colour: unknown setting or table",
				"breaks.micro_intervall: unknown setting; ignored (is it misspelled?)",
				"brakes: unknown setting or table",
			},
		},
		{
			name:     "a table that is a value",
			text:     "breaks = 5\n",
			problems: []string{"config.toml: breaks: must be a table ([breaks])"},
		},
		{
			name:     "a list where a duration belongs",
			text:     "[breaks]\nmicro_interval = [\"1m\"]\n",
			problems: []string{`config.toml:2: breaks.micro_interval: must be a duration in quotes, like "20m" or "30d"; using the default "20m"`},
		},
		{
			name:     "a table where a bool belongs",
			text:     "[breaks.enabled]\nx = 1\n",
			problems: []string{`config.toml:1: breaks.enabled: must be true or false; using the default true`},
		},
		{
			name: "ladder out of order",
			text: "[work_session]\nremind_at = \"70m\"\n",
			problems: []string{
				"config.toml: work_session: remind_at (1h10m) < warn_at (1h) < timeout_at (1h30m) does not hold; using the defaults 40m, 1h, 1h30m",
			},
		},
		{
			name: "problems come in file order",
			text: "[breaks]\nfull_interval = \"x\"\nmicro_interval = \"y\"\n",
			problems: []string{
				"config.toml:2: breaks.full_interval",
				"config.toml:3: breaks.micro_interval",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := def
			if tt.change != nil {
				tt.change(&want)
			}
			got, problems := Parse("config.toml", tt.text)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("config:\n got %+v\nwant %+v", got, want)
			}
			if len(problems) != len(tt.problems) {
				t.Fatalf("got %d problems, want %d: %q", len(problems), len(tt.problems), problems)
			}
			for i, p := range problems {
				if !strings.Contains(p.String(), tt.problems[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, p.String(), tt.problems[i])
				}
			}
		})
	}
}

// TestPushDetailDefault: the push sends only the kind of wait unless the
// person writes otherwise, and the template says so.
func TestPushDetailDefault(t *testing.T) {
	if got := Default().Notifications.PushDetail; got != PushSession {
		t.Errorf("default push_detail = %q, want %q", got, PushSession)
	}
	tmpl := Template()
	if !strings.Contains(tmpl, "\npush_detail = \"session\"\n") {
		t.Errorf("the template lacks push_detail = \"session\":\n%s", tmpl)
	}
	cfg, problems := Parse("config.toml", "[notifications]\npush_url = \"https://ntfy.sh/x\"\n")
	if len(problems) != 0 || cfg.Notifications.PushDetail != PushSession {
		t.Errorf("a file without push_detail: %q, %v; want %q", cfg.Notifications.PushDetail, problems, PushSession)
	}
}

func TestEnvOverrides(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		file     string
		want     func(*Breaks)
		problems []string
	}{
		{name: "none"},
		{
			name: "seconds override the file",
			env: map[string]string{
				"VIBE_CHECK_MICRO_INTERVAL":           "600",
				"VIBE_CHECK_FULL_INTERVAL":            "3000",
				"VIBE_CHECK_HYDRATION_INTERVAL":       "1200",
				"VIBE_CHECK_MICRO_BREAK_DURATION":     "30",
				"VIBE_CHECK_FULL_BREAK_DURATION":      "600",
				"VIBE_CHECK_HYDRATION_BREAK_DURATION": "90",
				"VIBE_CHECK_GAP_THRESHOLD":            "1.5",
				"VIBE_CHECK_STALE_THRESHOLD":          " 7200 ",
			},
			file: "[breaks]\nmicro_interval = \"5s\"\n",
			want: func(b *Breaks) {
				b.MicroInterval = 10 * time.Minute
				b.FullInterval = 50 * time.Minute
				b.HydrationInterval = 20 * time.Minute
				b.MicroDuration = 30 * time.Second
				b.FullDuration = 10 * time.Minute
				b.HydrationDuration = 90 * time.Second
				b.GapThreshold = 1500 * time.Millisecond
				b.StaleThreshold = 2 * time.Hour
			},
		},
		{
			name:     "bad values are ignored with a warning",
			env:      map[string]string{"VIBE_CHECK_MICRO_INTERVAL": "ten", "VIBE_CHECK_FULL_INTERVAL": "-1", "VIBE_CHECK_GAP_THRESHOLD": "0"},
			file:     "[breaks]\nfull_interval = \"1h\"\n",
			want:     func(b *Breaks) { b.FullInterval = time.Hour },
			problems: []string{"environment: VIBE_CHECK_MICRO_INTERVAL: \"ten\"", "VIBE_CHECK_FULL_INTERVAL: \"-1\"", "VIBE_CHECK_GAP_THRESHOLD: \"0\""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if tt.file != "" {
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, problems := Load(path, func(k string) string { return tt.env[k] })
			want := Default()
			if tt.want != nil {
				tt.want(&want.Breaks)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("config:\n got %+v\nwant %+v", got.Breaks, want.Breaks)
			}
			var texts []string
			for _, p := range problems {
				texts = append(texts, p.String())
			}
			if len(texts) != len(tt.problems) {
				t.Fatalf("problems = %q, want %d", texts, len(tt.problems))
			}
			for _, w := range tt.problems {
				if !strings.Contains(strings.Join(texts, "\n"), w) {
					t.Errorf("problems %q lack %q", texts, w)
				}
			}
		})
	}
}

func TestLoadMissingAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	cfg, problems := Load(filepath.Join(dir, "nope.toml"), nil)
	if len(problems) != 0 || !reflect.DeepEqual(cfg, Default()) {
		t.Errorf("missing file: %+v %v, want defaults and no problems", cfg, problems)
	}
	// A directory where the file should be cannot be read.
	cfg, problems = Load(dir, nil)
	if len(problems) != 1 || !strings.Contains(problems[0].String(), "cannot read the settings") || !reflect.DeepEqual(cfg, Default()) {
		t.Errorf("unreadable file: %v", problems)
	}
}
