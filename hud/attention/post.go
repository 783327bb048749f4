package attention

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
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

// PostNtfy POSTs m to rawURL the way ntfy reads it, which any webhook can
// take too: the body as plain text, the title, priority and tags as
// headers (RFC 2047-encoded where not ASCII, as ntfy accepts). Errors
// never hold the URL: it may carry a token.
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
	resp, err := http.DefaultClient.Do(req)
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
		return fmt.Errorf("POST %s: the server answered %s", config.RedactURL(rawURL), resp.Status)
	}
	return nil
}
