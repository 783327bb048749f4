package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// DevicesIn are the paired devices kept in dir.
func DevicesIn(dir string) *Devices { return &Devices{Path: filepath.Join(dir, "devices.json")} }

// ServerInfo is where a running page is served, for `hud serve --pair`
// and doctor (server.json beside the devices).
type ServerInfo struct {
	PID int `json:"pid"`
	// Listen is the address listened on; URL the page's as a browser
	// opens it.
	Listen string `json:"listen"`
	URL    string `json:"url"`
	TLS    bool   `json:"tls"`
}

func serverFile(dir string) string { return filepath.Join(dir, "server.json") }

// WriteServerFile says, in dir, that this process serves cfg on addr.
func WriteServerFile(dir string, cfg Config, addr net.Addr) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	info := ServerInfo{PID: os.Getpid(), Listen: addr.String(), URL: cfg.pageURL(addr), TLS: cfg.TLS()}
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	return safefile.Replace(serverFile(dir), append(b, '\n'), 0o600)
}

// RemoveServerFile removes dir's server.json if it is this process's.
func RemoveServerFile(dir string) {
	if info, err := ReadServerFile(dir); err == nil && info.PID == os.Getpid() {
		os.Remove(serverFile(dir))
	}
}

// ErrNoServer says no page is served here.
var ErrNoServer = errors.New("no page is served")

// ReadServerFile reads dir's server.json; a missing one is ErrNoServer.
// Whether its process still runs is the caller's to check.
func ReadServerFile(dir string) (ServerInfo, error) {
	b, _, err := safefile.Read(serverFile(dir), 64<<10, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return ServerInfo{}, ErrNoServer
	}
	if err != nil {
		return ServerInfo{}, err
	}
	var info ServerInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return ServerInfo{}, fmt.Errorf("reading %s: %w", serverFile(dir), err)
	}
	return info, nil
}

// pageURL is the page's address as a browser opens it: the configured
// URL, else the listening address (a wildcard one named by the loopback).
func (c Config) pageURL(addr net.Addr) string {
	if c.URL != "" {
		return c.URL
	}
	scheme := "http"
	if c.TLS() {
		scheme = "https"
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + "://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return (&url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)}).String()
}
