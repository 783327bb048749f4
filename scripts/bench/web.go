package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/hud/web"
	"github.com/capacitor-hud/hud/internal/paths"
)

// webClients is how many browsers follow the page's event stream in the
// web figure; webChangeEvery how often a session changes meanwhile.
const (
	webClients     = 50
	webChangeEvery = 2 * time.Second
)

// benchWeb measures what the page costs the tray: two trays on one bus,
// each with trayIdleSessions sessions, one serving the page; first idle
// with no browser (the page must cost the idle tray nothing), then with
// webClients browsers on the event stream while a session changes every
// webChangeEvery in both, each tray's CPU time over the same window.
func benchWeb(b *bench) error {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		fmt.Printf("web: skipped, it reads /proc\n\n")
		return nil
	}
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		fmt.Printf("web: skipped, no dbus-daemon (apt-get install dbus)\n\n")
		return nil
	}
	r, err := newTrayRig(b)
	if err != nil {
		return err
	}
	defer r.close()
	hud, hook, claude, bus, conn := r.hud, r.hook, r.claude, r.bus, r.conn
	plain, err := startTray(b, bus.address, conn, hud, "web-off")
	if err != nil {
		return err
	}
	defer plain.stop()
	page, err := startPageTray(b, bus.address, conn, hud)
	if err != nil {
		return err
	}
	defer page.stop()
	var sessions []*trayClaude
	for _, t := range []*trayProcess{plain, page} {
		for i := range trayIdleSessions {
			s, err := startTrayClaude(b, t.home, hook, claude, fmt.Sprintf("%s%02d", filepath.Base(t.home), i))
			if err != nil {
				return err
			}
			defer s.exit()
			if _, err := s.send("05-SessionStart-startup"); err != nil {
				return err
			}
			sessions = append(sessions, s)
		}
	}
	time.Sleep(time.Second)
	idle, err := cpuOver(trayIdleWindow, nil, plain, page)
	if err != nil {
		return err
	}
	stop, got, err := followPage(page.home, webClients)
	if err != nil {
		return err
	}
	turn := func(i int) error {
		ev := []string{"06-UserPromptSubmit", "11-Stop"}[i%2]
		for _, s := range []*trayClaude{sessions[0], sessions[trayIdleSessions]} {
			if _, err := s.send(ev); err != nil {
				return err
			}
		}
		return nil
	}
	busy, err := cpuOver(trayIdleWindow, turn, plain, page)
	stop()
	if err != nil {
		return err
	}
	window := trayIdleWindow.Seconds()
	fmt.Printf("web: two trays, %d sessions each, one serving the page; %v idle, then %v with a change every %v and %d browsers on the page's stream (they got %d updates in all)\n",
		trayIdleSessions, trayIdleWindow, trayIdleWindow, webChangeEvery, webClients, got())
	fmt.Println("| CPU time over the window         |  page off |   page on | page on, share of a core |")
	fmt.Println("|----------------------------------|-----------|-----------|--------------------------|")
	fmt.Printf("| idle, no browser                 | %9s | %9s | %23.2f%% |\n", ms(idle[0]), ms(idle[1]), 100*idle[1].Seconds()/window)
	fmt.Printf("| %2d browsers, a change every %-4v | %9s | %9s | %23.2f%% |\n\n", webClients, webChangeEvery, ms(busy[0]), ms(busy[1]), 100*busy[1].Seconds()/window)
	return nil
}

// startPageTray is startTray for a tray serving the page on a free
// loopback port.
func startPageTray(b *bench, address string, conn *dbus.Conn, hud string) (*trayProcess, error) {
	home := filepath.Join(b.dir, "tray-web-on")
	cfg := filepath.Join(home, ".config", "hud", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfg, []byte("[serve]\nenabled = true\nlisten = \"127.0.0.1:0\"\n"), 0o600); err != nil {
		return nil, err
	}
	return startTray(b, address, conn, hud, "web-on")
}

// cpuOver is each tray's CPU time over window, calling each (when set)
// every webChangeEvery.
func cpuOver(window time.Duration, each func(i int) error, trays ...*trayProcess) ([]time.Duration, error) {
	start := make([]time.Duration, len(trays))
	for i, t := range trays {
		c, err := trayCPUTime(t.cmd.Process.Pid)
		if err != nil {
			return nil, err
		}
		start[i] = c
	}
	end := time.Now().Add(window)
	for i := 0; time.Now().Before(end); i++ {
		if each != nil {
			if err := each(i); err != nil {
				return nil, err
			}
		}
		time.Sleep(min(webChangeEvery, time.Until(end)))
	}
	out := make([]time.Duration, len(trays))
	for i, t := range trays {
		c, err := trayCPUTime(t.cmd.Process.Pid)
		if err != nil {
			return nil, err
		}
		out[i] = c - start[i]
	}
	return out, nil
}

// followPage pairs n browsers with the page served from home and has each
// follow its event stream; stop ends them, got counts the updates they
// read.
func followPage(home string, n int) (stop func(), got func() int, err error) {
	dir := paths.Layout{Home: home}.WebDir()
	var info web.ServerInfo
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if info, err = web.ReadServerFile(dir); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, nil, fmt.Errorf("the page was never served: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	updates := 0
	for range n {
		client, err := pairedClient(dir, info.URL)
		if err != nil {
			cancel()
			return nil, nil, err
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, info.URL+"/events", nil)
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			cancel()
			return nil, nil, fmt.Errorf("following the page: %v %v", err, resp)
		}
		wg.Go(func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "event: update") {
					mu.Lock()
					updates++
					mu.Unlock()
				}
			}
		})
	}
	return func() { cancel(); wg.Wait() }, func() int { mu.Lock(); defer mu.Unlock(); return updates }, nil
}

// pairedClient is an HTTP client that paired itself with the page, as a
// browser does with `hud serve --pair`'s link.
func pairedClient(dir, pageURL string) (*http.Client, error) {
	secret, err := web.DevicesIn(dir).NewPairing()
	if err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.PostForm(pageURL+"/pair", url.Values{"secret": {secret}})
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("pairing: %s", resp.Status)
	}
	return client, nil
}
