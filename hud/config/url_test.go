package config

import (
	"strings"
	"testing"
)

func TestPushURL(t *testing.T) {
	const secret = "tk_s3cr3t"
	tests := []struct {
		name, value, want string
		problem           bool
	}{
		{"empty: no push", `""`, "", false},
		{"an ntfy topic", `"https://ntfy.sh/hud-` + secret + `"`, "https://ntfy.sh/hud-" + secret, false},
		{"a webhook with a token", `"http://127.0.0.1:8080/hook?token=` + secret + `"`, "http://127.0.0.1:8080/hook?token=" + secret, false},
		{"not a web URL", `"ftp://host/` + secret + `"`, "", true},
		{"no host", `"https:///` + secret + `"`, "", true},
		{"does not parse", `"http://[` + secret + `"`, "", true},
		{"not a string", `3`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, problems := Parse("config.toml", "[notifications]\npush_url = "+tt.value+"\n")
			if cfg.Notifications.PushURL != tt.want {
				t.Errorf("push_url = %q, want %q", cfg.Notifications.PushURL, tt.want)
			}
			if (len(problems) > 0) != tt.problem {
				t.Errorf("problems = %v, want some: %v", problems, tt.problem)
			}
			for _, p := range problems {
				if strings.Contains(p.Message, secret) {
					t.Errorf("the problem repeats the URL: %s", p.Message)
				}
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"https://ntfy.sh/hud-tk_secret", "https://ntfy.sh/…"},
		{"https://ntfy.sh/", "https://ntfy.sh/"},
		{"https://user:pw@hooks.example/x", "https://hooks.example/…"},
		{"http://127.0.0.1:9/?auth=tk", "http://127.0.0.1:9/…"},
		{"::", "(a URL that does not parse)"},
	}
	for _, tt := range tests {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
