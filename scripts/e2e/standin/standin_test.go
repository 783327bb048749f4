package standin

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readEvents(t *testing.T, resp *http.Response) []sseEvent {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	var events []sseEvent
	var name string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var data map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &data); err != nil {
				t.Fatalf("event %s: data is not JSON: %v", name, err)
			}
			if data["type"] != name {
				t.Errorf("event %q carries type %q", name, data["type"])
			}
			events = append(events, sseEvent{name, data})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return events
}

// summarize reassembles a streamed answer: the block types, the text, the
// tool input JSON and the stop reason; it also checks the event order.
func summarize(t *testing.T, events []sseEvent) (blocks []string, text, input, stop string) {
	t.Helper()
	var names []string
	for _, e := range events {
		// Pings may come anywhere; a run of deltas counts once.
		if e.name != "ping" && (len(names) == 0 || names[len(names)-1] != e.name || e.name != "content_block_delta") {
			names = append(names, e.name)
		}
		switch e.name {
		case "content_block_start":
			cb := e.data["content_block"].(map[string]any)
			blocks = append(blocks, cb["type"].(string))
		case "content_block_delta":
			d := e.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				text += d["text"].(string)
			case "input_json_delta":
				input += d["partial_json"].(string)
			default:
				t.Errorf("unknown delta type %v", d["type"])
			}
		case "message_delta":
			stop, _ = e.data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	joined := strings.Join(names, " ")
	want := "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"
	if joined != want {
		t.Errorf("event order:\n got %s\nwant %s", joined, want)
	}
	return blocks, text, input, stop
}

const bashTool = `"tools":[{"name":"Bash"},{"name":"Read"}]`

func TestStreamedAnswers(t *testing.T) {
	srv := httptest.NewServer(New(t.Logf))
	defer srv.Close()

	tests := []struct {
		name      string
		body      string
		wantBlock string
		wantText  string // substring
		wantCmd   string
		wantStop  string
		wantInput string // substring of the tool input
	}{
		{"plain text", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":"hello"}]}`,
			"text", "Hello from the stand-in.", "", "end_turn", ""},
		{"tool directive", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"TOOL:touch a.txt"}]}]}`,
			"tool_use", "", "touch a.txt", "tool_use", ""},
		{"tool directive after SLOW", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":"SLOW:0.1 TOOL:sleep 1 && touch b"}]}`,
			"tool_use", "", "sleep 1 && touch b", "tool_use", ""},
		{"tool directive without a Bash tool", `{"model":"m","stream":true,"messages":[{"role":"user","content":"TOOL:touch a.txt"}]}`,
			"text", "Hello", "", "end_turn", ""},
		{"tool result", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":"TOOL:touch a"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]}`,
			"text", "Done.", "", "end_turn", ""},
		{"a new prompt after a denied tool", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"rejected","is_error":true},{"type":"text","text":"[Request interrupted by user for tool use]"},{"type":"text","text":"TOOL:touch c"}]}]}`,
			"tool_use", "", "touch c", "tool_use", ""},
		{"prompts merged after an error: the newest counts", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":[{"type":"text","text":"ERROR:400"},{"type":"text","text":"TOOL:touch d"}]}]}`,
			"tool_use", "", "touch d", "tool_use", ""},
		{"agent directive", `{"model":"m","stream":true,"tools":[{"name":"Agent"},{"name":"Bash"}],"messages":[{"role":"user","content":"AGENT:SLOW:1"}]}`,
			"tool_use", "", "", "tool_use", `"prompt":"SLOW:1","subagent_type":"general-purpose"`},
		{"a deferred tool is loaded with ToolSearch first", `{"model":"m","stream":true,"tools":[{"name":"Bash"},{"name":"ToolSearch"}],"messages":[{"role":"user","content":"TASK:ship it"}]}`,
			"tool_use", "", "", "tool_use", `"query":"select:TaskCreate"`},
		{"then called once ToolSearch loaded it", `{"model":"m","stream":true,"tools":[{"name":"Bash"},{"name":"ToolSearch"}],"messages":[{"role":"user","content":"TASK:ship it"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ToolSearch","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"tool_reference","tool_name":"TaskCreate"}]}]}]}`,
			"tool_use", "", "", "tool_use", `"subject":"ship it"`},
		{"and its result answered", `{"model":"m","stream":true,"tools":[{"name":"Bash"},{"name":"ToolSearch"}],"messages":[{"role":"user","content":"TASK:ship it"},{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"TaskCreate","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"Task #1 created"}]}]}`,
			"text", "Done.", "", "end_turn", ""},
		{"compaction next to a tool result", `{"model":"m","stream":true,` + bashTool + `,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"Your task is to create a detailed summary of the conversation so far"}]}]}`,
			"text", "<summary>", "", "end_turn", ""},
		{"structured title", `{"model":"m","stream":true,"output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"}}}}},"messages":[{"role":"user","content":"<session>TOOL:x</session>"}]}`,
			"text", `{"title":"Stand-in session"}`, "", "end_turn", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, srv.URL+"/v1/messages?beta=true", tt.body)
			blocks, text, input, stop := summarize(t, readEvents(t, resp))
			if len(blocks) != 1 || blocks[0] != tt.wantBlock {
				t.Errorf("blocks = %v, want [%s]", blocks, tt.wantBlock)
			}
			if !strings.Contains(text, tt.wantText) {
				t.Errorf("text = %q, want it to contain %q", text, tt.wantText)
			}
			if tt.wantCmd != "" {
				var in struct{ Command string }
				if err := json.Unmarshal([]byte(input), &in); err != nil {
					t.Fatalf("tool input %q: %v", input, err)
				}
				if in.Command != tt.wantCmd {
					t.Errorf("command = %q, want %q", in.Command, tt.wantCmd)
				}
			}
			if !strings.Contains(input, tt.wantInput) {
				t.Errorf("tool input = %s, want it to contain %s", input, tt.wantInput)
			}
			if stop != tt.wantStop {
				t.Errorf("stop_reason = %q, want %q", stop, tt.wantStop)
			}
		})
	}
}

func TestSlowAnswerTakesItsTime(t *testing.T) {
	s := New(t.Logf)
	srv := httptest.NewServer(s)
	defer srv.Close()
	start := time.Now()
	resp := post(t, srv.URL+"/v1/messages", `{"model":"m","stream":true,`+bashTool+`,"messages":[{"role":"user","content":"SLOW:0.5"}]}`)
	_, text, _, _ := summarize(t, readEvents(t, resp))
	if took := time.Since(start); took < 400*time.Millisecond {
		t.Errorf("SLOW:0.5 took %v", took)
	}
	if !strings.Contains(text, "slow on purpose") {
		t.Errorf("text = %q", text)
	}
	if end := s.LastAnswerEnd(); end.Before(start) {
		t.Errorf("LastAnswerEnd = %v, before the request", end)
	}
}

func TestSlowToolTurn(t *testing.T) {
	srv := httptest.NewServer(New(t.Logf))
	defer srv.Close()
	start := time.Now()
	resp := post(t, srv.URL+"/v1/messages", `{"model":"m","stream":true,`+bashTool+`,"messages":[`+
		`{"role":"user","content":"SLOW:0.3 TOOL:true"},`+
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":""}]}]}`)
	_, text, _, _ := summarize(t, readEvents(t, resp))
	if took := time.Since(start); took < 250*time.Millisecond {
		t.Errorf("the answer after the tool took %v, want about 0.3 s", took)
	}
	if !strings.HasPrefix(text, "Done") {
		t.Errorf("text = %q", text)
	}
}

func TestNonStreamingAndOtherPaths(t *testing.T) {
	srv := httptest.NewServer(New(t.Logf))
	defer srv.Close()

	resp := post(t, srv.URL+"/v1/messages", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	var msg struct {
		Type       string
		StopReason string `json:"stop_reason"`
		Content    []struct{ Type, Text string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "message" || msg.StopReason != "end_turn" || len(msg.Content) != 1 || msg.Content[0].Text == "" {
		t.Errorf("non-streaming answer = %+v", msg)
	}

	resp = post(t, srv.URL+"/v1/messages/count_tokens", `{"model":"m","messages":[{"role":"user","content":"hello there"}]}`)
	var count struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&count); err != nil || count.InputTokens <= 0 {
		t.Errorf("count_tokens = %+v, %v", count, err)
	}

	resp = post(t, srv.URL+"/v1/unknown", `{}`)
	var apiErr struct {
		Type  string
		Error struct{ Type string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&apiErr); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound || apiErr.Type != "error" || apiErr.Error.Type != "not_found_error" {
		t.Errorf("unknown path: %d %+v", resp.StatusCode, apiErr)
	}

	resp = post(t, srv.URL+"/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"ERROR:400"}]}`)
	apiErr.Type, apiErr.Error.Type = "", ""
	if err := json.NewDecoder(resp.Body).Decode(&apiErr); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusBadRequest || apiErr.Error.Type != "invalid_request_error" {
		t.Errorf("ERROR:400: %d %+v", resp.StatusCode, apiErr)
	}

	resp = post(t, srv.URL+"/v1/messages", `not json`)
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad body: status %d, want 400", resp.StatusCode)
	}
}
