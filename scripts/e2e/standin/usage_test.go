package standin

import (
	"net/http/httptest"
	"testing"
	"time"
)

// TestContextAndLimits: CONTEXT:<n> makes the answer's usage add up to n
// (input, cache creation, cache read), the exchange records it, and the
// limits go out in the rate-limit headers.
func TestContextAndLimits(t *testing.T) {
	s := New(t.Logf)
	reset := time.Unix(1795000000, 0)
	s.SetLimits(&RateLimits{FiveHour: 0.42, SevenDay: 0.91, FiveHourReset: reset, SevenDayReset: reset.Add(time.Hour)})
	srv := httptest.NewServer(s)
	defer srv.Close()
	resp := post(t, srv.URL+"/v1/messages", `{"model":"m","stream":true,`+bashTool+`,"messages":[{"role":"user","content":"CONTEXT:170000 go on"}]}`)
	events := readEvents(t, resp)
	usage := events[0].data["message"].(map[string]any)["usage"].(map[string]any)
	sum := usage["input_tokens"].(float64) + usage["cache_creation_input_tokens"].(float64) + usage["cache_read_input_tokens"].(float64)
	if sum != 170000 || usage["cache_read_input_tokens"].(float64) == 0 {
		t.Errorf("usage %v", usage)
	}
	if x := s.Exchanges(); len(x) != 1 || x[0].Context != 170000 {
		t.Errorf("exchanges %+v", x)
	}
	for h, want := range map[string]string{
		"anthropic-ratelimit-unified-5h-utilization": "0.42",
		"anthropic-ratelimit-unified-7d-utilization": "0.91",
		"anthropic-ratelimit-unified-5h-reset":       "1795000000",
		"anthropic-ratelimit-unified-7d-reset":       "1795003600",
	} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
}
