package cli

import (
	"errors"
	"fmt"
	"log"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/web"
	"github.com/capacitor-hud/hud/internal/proc"
)

const serveUsage = `serve [--listen ADDR] [--cert FILE --key FILE] [--url URL] [--plaintext-beyond-loopback]
       serve --pair | --revoke

Serves hud's page: every session with its dialogs and their choices, the
next break, the usage limits and the day's timeline, live, for a browser or
a phone. It runs the tray's loop without an icon; when the tray runs, it
serves the page itself with [serve] enabled = true in config.toml.

  --pair     print a link (and its QR code) that pairs one more browser with
             the running page: it works once, within 10 minutes
  --revoke   unpair every browser

The page listens on 127.0.0.1:7878 unless told otherwise. Another machine
reaches it over TLS (--cert and --key), through tailscale serve or an ssh
tunnel (--url then names the address it is reached at), or, knowingly, in
plain text with --plaintext-beyond-loopback. See docs/web.md.`

func runServe(env *Env, args []string) error {
	fs := newFlagSet(env, "serve", serveUsage)
	cfg := config.Default().Serve
	if c, _ := config.Load(config.DefaultPath(env.Home, env.Getenv), env.Getenv); c.Serve.Listen != "" {
		cfg = c.Serve
	}
	listen := fs.String("listen", cfg.Listen, "the address to listen on")
	cert := fs.String("cert", cfg.Cert, "a TLS certificate (PEM): serve over HTTPS")
	key := fs.String("key", cfg.Key, "the certificate's private key (PEM)")
	url := fs.String("url", cfg.URL, "the page's address as a browser opens it, behind a proxy")
	plain := fs.Bool("plaintext-beyond-loopback", cfg.PlaintextBeyondLoopback, "allow listening beyond the loopback without TLS (the cookie and every answer cross the network readable)")
	pair := fs.Bool("pair", false, "print a link that pairs one more browser")
	revoke := fs.Bool("revoke", false, "unpair every browser")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case *pair && *revoke:
		return usagef("--pair and --revoke do not go together")
	case *pair:
		return pairDevice(env)
	case *revoke:
		n, err := web.DevicesIn(env.Layout().WebDir()).RevokeAll()
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Unpaired %d browser(s); the pairing links not used yet no longer work either.\n", n)
		return nil
	}
	wc := web.Config{Listen: *listen, CertFile: *cert, KeyFile: *key, URL: *url, PlaintextBeyondLoopback: *plain}
	if err := wc.Check(); err != nil {
		return withHint(err, "serve it over TLS (--cert, --key), or keep it on the loopback and reach it through tailscale serve or an ssh tunnel (docs/web.md); --plaintext-beyond-loopback allows it")
	}
	return serveLoop(env, wc)
}

// serveLoop runs the tray's loop without an icon, serving the page.
func serveLoop(env *Env, wc web.Config) error {
	logf := log.New(env.Stderr, "hud serve: ", log.LstdFlags).Printf
	err := mainLoop(env, app.Setup{Logf: logf, Show: app.Headless, Serve: &wc})
	if !errors.Is(err, app.ErrAlreadyRunning) {
		return err
	}
	if info, err := runningPage(env); err == nil {
		return withHint(fmt.Errorf("the tray serves the page already, at %s", info.URL), "pair a browser with: hud serve --pair")
	}
	return withHint(errors.New("the tray runs, and serves no page"),
		"set enabled = true under [serve] in "+config.DefaultPath(env.Home, env.Getenv)+" and restart the tray, or quit the tray and run hud serve")
}

// runningPage is the page a live process serves here.
func runningPage(env *Env) (web.ServerInfo, error) {
	info, err := web.ReadServerFile(env.Layout().WebDir())
	if err != nil {
		return info, err
	}
	if !proc.Alive(info.PID, 0) {
		return info, web.ErrNoServer
	}
	return info, nil
}

// pairDevice prints a one-time pairing link for the running page, and its
// QR code on a terminal.
func pairDevice(env *Env) error {
	info, err := runningPage(env)
	switch {
	case errors.Is(err, web.ErrNoServer):
		return withHint(errors.New("no page is served here"), "start it: hud serve (or [serve] enabled = true for the tray)")
	case err != nil:
		return err
	}
	secret, err := web.DevicesIn(env.Layout().WebDir()).NewPairing()
	if err != nil {
		return err
	}
	link := info.URL + "/pair#" + secret
	fmt.Fprintf(env.Stdout, "Open this link on the device to pair (once, within 10 minutes):\n\n  %s\n\n", link)
	if isTerminal(env.Stdout) {
		if q, err := qrcode.New(link, qrcode.Medium); err == nil {
			fmt.Fprintln(env.Stdout, q.ToSmallString(false))
		}
	}
	fmt.Fprintln(env.Stdout, "The code after # never reaches a server or a log. hud serve --revoke unpairs every device.")
	return nil
}
