package gemini

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const shellTool = `{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command"]}}]}`

func TestGenerate(t *testing.T) {
	srv := httptest.NewServer(New(t.Logf))
	defer srv.Close()
	tests := []struct {
		name, method, body string
		status             int
		want               []string
	}{
		{"text", "streamGenerateContent?alt=sse", `{"tools":[` + shellTool + `],"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, 200,
			[]string{"data: ", `Hello from`, `"finishReason":"STOP"`}},
		{"tool call", "streamGenerateContent?alt=sse", `{"tools":[` + shellTool + `],"contents":[{"role":"user","parts":[{"text":"TOOL:touch x"}]}]}`, 200,
			[]string{`"functionCall":{"args":{"command":"touch x"},"name":"run_shell_command"}`, `"finishReason":"STOP"`}},
		{"after the tool", "streamGenerateContent?alt=sse", `{"tools":[` + shellTool + `],"contents":[{"role":"user","parts":[{"text":"TOOL:touch x"}]},{"role":"model","parts":[{"functionCall":{}}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command"}}]}]}`, 200,
			[]string{`"text":"Done."`}},
		{"next speaker", "generateContent", `{"contents":[{"role":"user","parts":[{"text":"who next"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"next_speaker":{"type":"string","enum":["user","model"]}},"required":["next_speaker"]}}}`, 200,
			[]string{`{\"next_speaker\":\"user\"}`}},
		{"error", "streamGenerateContent?alt=sse", `{"tools":[` + shellTool + `],"contents":[{"role":"user","parts":[{"text":"ERROR:400"}]}]}`, 400,
			[]string{`"status":"INVALID_ARGUMENT"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL+"/v1beta/models/gemini-2.5-pro:"+tt.method, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			rest := string(body)
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("response lacks %q (in order) in:\n%s", w, body)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
