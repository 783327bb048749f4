package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
)

// TestAnswerGoesToTheDialogListed: `hud answer SESSION CHOICE` answers
// the dialog `hud answer` showed. When another dialog of the session took
// its place since, the answer is refused (naming the new one) and the new
// dialog's hook gets nothing; once listed, it can be answered.
func TestAnswerGoesToTheDialogListed(t *testing.T) {
	home, err := os.MkdirTemp("", "hud-cli-") // short: a socket path's limit
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	srv, err := answer.Listen(answer.SocketPath(home), os.Getuid(), t.Logf, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	run := func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Home: home,
			Getenv: func(string) string { return "" }, Now: time.Now}
		err := runAnswer(env, args)
		return stdout.String(), err
	}
	type result struct {
		choice string
		err    error
	}
	offer := func(command string) (answer.Request, <-chan result) {
		req, err := answer.NewRequest(answer.Dialog{Session: "11111111-aaaa", Tool: "Bash",
			Input: json.RawMessage(`{"command":` + jsonQuote(command) + `}`)}, time.Now(), os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		h, err := answer.Connect(home)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan result, 1)
		go func() {
			defer h.Close()
			c, err := h.Offer(req, 10*time.Second)
			got <- result{c, err}
		}()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(2 * time.Millisecond) {
			if p := srv.Pending(); len(p) == 1 && p[0].ID == req.ID {
				return req, got
			}
			if time.Now().After(deadline) {
				t.Fatalf("the tray never held %q", command)
			}
		}
	}

	_, first := offer("npm test")
	if out, err := run(); err != nil || !strings.Contains(out, "Bash: npm test") {
		t.Fatalf("listing: %v\n%s", err, out)
	}
	// Another dialog takes the first one's place.
	_, second := offer("rm -rf ~")
	if r := <-first; !errors.Is(r.err, answer.ErrEnded) {
		t.Errorf("the first dialog's hook: %+v, want it ended", r)
	}
	_, err = run("11111111", "allow")
	if !errors.Is(err, answer.ErrNotListed) || !strings.Contains(err.Error(), "rm -rf ~") {
		t.Errorf("an answer to a dialog replaced since the listing: %v, want it refused, naming the new dialog", err)
	}
	var hint *HintError
	if !errors.As(err, &hint) || !strings.Contains(hint.Hint, "hud answer") {
		t.Errorf("the refusal's hint: %+v, want to list again", hint)
	}
	select {
	case r := <-second:
		t.Fatalf("the new dialog's hook got %+v from an answer meant for the old one", r)
	case <-time.After(50 * time.Millisecond):
	}
	if out, err := run(); err != nil || !strings.Contains(out, "Bash: rm -rf ~") {
		t.Fatalf("listing again: %v\n%s", err, out)
	}
	if _, err := run("11111111", "deny"); err != nil {
		t.Fatalf("an answer to the dialog listed: %v", err)
	}
	if r := <-second; r.err != nil || r.choice != answer.Deny {
		t.Errorf("the hook got %+v, want deny", r)
	}

	// With nothing listed, nothing is answered by session.
	os.Remove(answer.ListedPath(home))
	offer("make")
	if _, err := run("11111111", "allow"); !errors.Is(err, answer.ErrNotListed) {
		t.Errorf("an answer with no listing: %v, want it refused", err)
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestAnswerListingIsPlainText: the listing prints the project's name,
// which a repository's directory may choose, without its escape
// sequences.
func TestAnswerListingIsPlainText(t *testing.T) {
	home, err := os.MkdirTemp("", "hud-cli-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	srv, err := answer.Listen(answer.SocketPath(home), os.Getuid(), t.Logf, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	req, err := answer.NewRequest(answer.Dialog{Session: "22222222-\x1b[2J", Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`),
		Project: "/src/\x1b]0;owned\x07proj"}, time.Now(), os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	h, err := answer.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	go h.Offer(req, 10*time.Second)
	for deadline := time.Now().Add(5 * time.Second); len(srv.Pending()) == 0; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tray never held the request")
		}
	}
	var stdout bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stdout, Home: home,
		Getenv: func(string) string { return "" }, Now: time.Now}
	if err := runAnswer(env, nil); err != nil {
		t.Fatal(err)
	}
	if out := stdout.String(); strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) || !strings.Contains(out, "proj") {
		t.Errorf("the listing has control characters or lacks the project:\n%q", out)
	}
}
