package chat

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const shellTool = `{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command","description"]}}}`

func TestCompletions(t *testing.T) {
	srv := httptest.NewServer(New(t.Logf))
	defer srv.Close()
	tests := []struct {
		name, body string
		status     int
		want       []string // substrings of the response, in order
	}{
		{"text", `{"stream":true,"tools":[` + shellTool + `],"messages":[{"role":"user","content":"hi"}]}`, 200,
			[]string{`"role":"assistant"`, `Hello from`, `"finish_reason":"stop"`, "data: [DONE]"}},
		{"tool call", `{"stream":true,"tools":[` + shellTool + `],"messages":[{"role":"user","content":[{"type":"text","text":"TOOL:touch x"}]}]}`, 200,
			[]string{`\"command\":\"touch x\"`, `\"description\":\"stand-in step\"`, `"name":"bash"`, `"finish_reason":"tool_calls"`, "[DONE]"}},
		{"after the tool", `{"stream":false,"tools":[` + shellTool + `],"messages":[{"role":"user","content":"TOOL:touch x"},{"role":"assistant","content":null},{"role":"tool","content":"ok"}]}`, 200,
			[]string{`"finish_reason":"stop"`, `"content":"Done."`}},
		{"error", `{"stream":true,"tools":[` + shellTool + `],"messages":[{"role":"user","content":"ERROR:503"}]}`, 503,
			[]string{`"error"`, `503`}},
		{"side request", `{"messages":[{"role":"user","content":"TOOL:x"}]}`, 200,
			[]string{`Stand-in session`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			var all strings.Builder
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				all.WriteString(sc.Text() + "\n")
			}
			rest := all.String()
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("response lacks %q (in order) in:\n%s", w, all.String())
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
