package attention

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
)

// postTimeout bounds one POST: a server that accepts and never answers.
const postTimeout = 15 * time.Second

// maxAnswer bounds what is read of the server's answer (only to let the
// connection be reused).
const maxAnswer = 64 << 10

// client sends the push and follows no redirect: a redirect would send
// the message again to a host the person never named (a 307 or 308 repeats
// the body), and the person's URL is the one place the push may go. A 3xx
// is then an answer like any other that is not 2xx: an error, retried.
var client = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// PostNtfy POSTs m to rawURL the way ntfy reads it, which any webhook can
// take too: the body as plain text, the title, priority and tags as
// headers (RFC 2047-encoded where not ASCII, as ntfy accepts). It follows
// no redirect (client). Errors never hold the URL (it may carry a token),
// nor the server's own words: the status is named by its code.
func PostNtfy(ctx context.Context, rawURL string, m Message) error {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, strings.NewReader(text.Strip(m.Body)))
	if err != nil {
		return fmt.Errorf("POST %s: the URL is not usable", config.RedactURL(rawURL))
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Title", mime.BEncoding.Encode("utf-8", text.Line(m.Title, 0)))
	req.Header.Set("Priority", "high")
	req.Header.Set("Tags", "hourglass_flowing_sand")
	if m.Link != "" {
		// ntfy opens it when the notification is tapped.
		req.Header.Set("Click", m.Link)
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("POST %s: %w", config.RedactURL(rawURL), err)
	}
	defer resp.Body.Close()
	_, _ = io.CopyN(io.Discard, resp.Body, maxAnswer)
	if resp.StatusCode/100 != 2 {
		status := strconv.Itoa(resp.StatusCode)
		if t := http.StatusText(resp.StatusCode); t != "" {
			status += " " + t
		}
		return fmt.Errorf("POST %s: the server answered %s", config.RedactURL(rawURL), status)
	}
	return nil
}
