package doctor

import (
	"errors"
	"net"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/web"
)

// checkWeb says where the page is served, over what, and to how many
// browsers; nothing when it is not served and not asked for.
func checkWeb(env *Env) []Finding {
	dir := env.Layout.WebDir()
	cfg, _ := config.Load(env.ConfigPath, env.Getenv)
	info, err := web.ReadServerFile(dir)
	live := err == nil && env.Alive(info.PID, 0)
	switch {
	case err != nil && !errors.Is(err, web.ErrNoServer):
		return []Finding{fail("remove it: rm "+dir+"/server.json (the server writes it again)", "%v", err)}
	case !live && cfg.Serve.Enabled:
		return []Finding{warn("start the tray (hud), or run hud serve", "[serve] is enabled, but no page is served")}
	case !live:
		return nil
	}
	devices, links, err := web.DevicesIn(dir).Count()
	if err != nil {
		return []Finding{fail("hud serve --revoke starts the file afresh (every browser pairs again)", "%v", err)}
	}
	over := "plain HTTP"
	if info.TLS {
		over = "TLS"
	}
	var out []Finding
	if host, _, err := net.SplitHostPort(info.Listen); err == nil && !info.TLS && !loopbackHost(host) {
		out = append(out, warn("serve it over TLS, or on the loopback behind tailscale serve or an ssh tunnel (docs/web.md)",
			"the page is served in plain text on %s, reachable from other machines", info.Listen))
	}
	if devices == 0 {
		out = append(out, warn("pair one: hud serve --pair", "the page is served at %s, but no browser is paired", info.URL))
	}
	return append(out, ok("the page: %s (listening on %s, %s), %d browser(s) paired, %d pairing link(s) unused", info.URL, info.Listen, over, devices, links))
}

func loopbackHost(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}
