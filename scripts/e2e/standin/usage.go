package standin

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// contextDirective (CONTEXT:<tokens>, in the newest user text of a request
// that offers tools) makes the answer report that many tokens of context
// in use, split over input, cache creation and cache read as a cached
// conversation's answer is, so a test knows the share to expect.
var contextDirective = regexp.MustCompile(`CONTEXT:([0-9]{1,7})\b`)

// contextTokens is the context a request's directive asks for; 0 when it
// asks for none (the usual four bytes a token then).
func contextTokens(req request) int {
	if len(req.Tools) == 0 {
		return 0
	}
	last, ok := lastUserMessage(req.Messages)
	if !ok {
		return 0
	}
	bs, err := last.blocks()
	if err != nil {
		return 0
	}
	var texts []string
	for _, b := range bs {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	m := contextDirective.FindStringSubmatch(strings.Join(texts, "\n"))
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// contextUsage is the usage an answer reports for tokens of context.
func contextUsage(tokens int) usage {
	if tokens < 300 {
		return usage{InputTokens: tokens}
	}
	return usage{InputTokens: 100, CacheCreationInputTokens: 200, CacheReadInputTokens: tokens - 300}
}

// RateLimits are the account's usage windows the stand-in reports in the
// anthropic-ratelimit-unified-* headers of every answer, as the real API
// does for a subscription login: utilization as a fraction, reset as Unix
// seconds.
type RateLimits struct {
	FiveHour, SevenDay float64
	FiveHourReset      time.Time
	SevenDayReset      time.Time
}

// SetLimits makes every answer from now on report l in its rate-limit
// headers; nil stops them.
func (s *Server) SetLimits(l *RateLimits) { s.limits.Store(l) }

// setRateLimitHeaders writes l into h.
func setRateLimitHeaders(h http.Header, l *RateLimits) {
	if l == nil {
		return
	}
	h.Set("anthropic-ratelimit-unified-status", "allowed")
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("anthropic-ratelimit-unified-reset", strconv.FormatInt(l.FiveHourReset.Unix(), 10))
	h.Set("anthropic-ratelimit-unified-5h-status", "allowed")
	h.Set("anthropic-ratelimit-unified-5h-utilization", strconv.FormatFloat(l.FiveHour, 'f', -1, 64))
	h.Set("anthropic-ratelimit-unified-5h-reset", strconv.FormatInt(l.FiveHourReset.Unix(), 10))
	h.Set("anthropic-ratelimit-unified-7d-status", "allowed")
	h.Set("anthropic-ratelimit-unified-7d-utilization", strconv.FormatFloat(l.SevenDay, 'f', -1, 64))
	h.Set("anthropic-ratelimit-unified-7d-reset", strconv.FormatInt(l.SevenDayReset.Unix(), 10))
}
