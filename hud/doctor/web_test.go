package doctor

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/web"
	"github.com/capacitor-hud/hud/internal/paths"
)

func TestCheckWeb(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	env := &Env{Layout: l, ConfigPath: filepath.Join(l.Home, "config.toml"), Getenv: func(string) string { return "" },
		Alive: func(pid int, _ int64) bool { return pid == os.Getpid() }}
	says := func(want ...string) {
		t.Helper()
		var got []string
		for _, f := range checkWeb(env) {
			got = append(got, f.Severity.mark()+" "+f.Message)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	says() // not served, not asked for
	os.WriteFile(env.ConfigPath, []byte("[serve]\nenabled = true\n"), 0o600)
	says("! [serve] is enabled, but no page is served")

	addr := &net.TCPAddr{IP: net.IPv4(0, 0, 0, 0), Port: 7878}
	if err := web.WriteServerFile(l.WebDir(), web.Config{Listen: "0.0.0.0:7878", PlaintextBeyondLoopback: true}, addr); err != nil {
		t.Fatal(err)
	}
	says("! the page is served in plain text on 0.0.0.0:7878, reachable from other machines",
		"! the page is served at http://127.0.0.1:7878, but no browser is paired",
		"✓ the page: http://127.0.0.1:7878 (listening on 0.0.0.0:7878, plain HTTP), 0 browser(s) paired, 0 pairing link(s) unused")

	d := web.DevicesIn(l.WebDir())
	secret, _ := d.NewPairing()
	if _, _, err := d.Pair(secret, "phone"); err != nil {
		t.Fatal(err)
	}
	d.NewPairing()
	addr.IP = net.IPv4(127, 0, 0, 1)
	web.WriteServerFile(l.WebDir(), web.Config{URL: "https://box.example.ts.net"}, addr)
	says("✓ the page: https://box.example.ts.net (listening on 127.0.0.1:7878, plain HTTP), 1 browser(s) paired, 1 pairing link(s) unused")
}
