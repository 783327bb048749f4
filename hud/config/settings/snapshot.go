package settings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// DefaultPath is $XDG_CONFIG_HOME/hud/config.toml, or
// <home>/.config/hud/config.toml when XDG_CONFIG_HOME is unset or not an
// absolute path (the XDG spec says to ignore relative ones). The same path
// is used on macOS, where people who set XDG_CONFIG_HOME expect it honoured.
func DefaultPath(home string, getenv func(string) string) string {
	if getenv != nil {
		if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
			return filepath.Join(dir, "hud", "config.toml")
		}
	}
	return filepath.Join(home, ".config", "hud", "config.toml")
}

// SnapshotName is the file, next to config.toml, in which hud leaves the
// hook the settings it last read from config.toml.
//
// The hook runs on every event of every session and needs only a few
// settings on a few events; linking a TOML parser would cost it on every
// event (BurntSushi/toml's package initialisation alone asks for the local
// time zone, reading /etc/localtime). So whatever reads config.toml with
// the parser (the tray on start and on every change of the file, every hud
// command that reads settings) writes this copy, and the hook reads it.
const SnapshotName = "hook-settings.json"

// sourceHash identifies a text of config.toml.
func sourceHash(text []byte) string {
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}

// snapshotVersion changes whenever Config's JSON form does; a copy of
// another version is as good as none.
const snapshotVersion = 1

type snapshot struct {
	Version int `json:"version"`
	// Source is the SHA-256 of config.toml's text the settings were read
	// from, in hex: the hook compares it with the file's to know whether
	// the copy is current (a hash, not the text: the template is mostly
	// comments, which the hook would decode on every read).
	Source string `json:"source_sha256"`
	// Config is what the file says, without the environment's overrides
	// (those belong to the process that reads it).
	Config Config `json:"config"`
}

// SnapshotPath is the snapshot's path for the settings file configPath.
func SnapshotPath(configPath string) string {
	return filepath.Join(filepath.Dir(configPath), SnapshotName)
}

// WriteSnapshot records that source, config.toml's text at configPath,
// reads as cfg (without environment overrides). It writes only when the
// copy differs, so that reading the settings again costs no write.
func WriteSnapshot(configPath string, source []byte, cfg Config) error {
	data, err := json.Marshal(snapshot{Version: snapshotVersion, Source: sourceHash(source), Config: cfg})
	if err != nil {
		return err
	}
	path := SnapshotPath(configPath)
	if old, _, err := safefile.Read(path, safefile.MaxRead, safefile.NoFollow); err == nil && bytes.Equal(old, data) {
		return nil
	}
	// Not durable: the copy is rebuilt from config.toml whenever hud reads
	// it, and a stale one is detected by its Source.
	return safefile.Replace(path, data, 0o600)
}

// ErrStale is returned by ForHook when config.toml changed since hud last
// read it (or was never read by this version of hud).
var ErrStale = errors.New("config.toml changed since hud last read it; the hook uses the settings hud read before (or the defaults) until the tray or any hud command reads the file")

// ForHook returns the settings for the hook without parsing TOML: what the
// snapshot next to configPath says when its source is config.toml's
// current text, and the VIBE_CHECK_* overrides read through getenv (nil:
// none). A missing config.toml gives the defaults. When the snapshot is
// stale or missing, the hook still gets the settings hud last read (or the
// defaults) and ErrStale to log; problems in the file itself are not the
// hook's to report (hud doctor and the tray do).
func ForHook(configPath string, getenv func(string) string) (Config, error) {
	cfg, err := fromSnapshot(configPath)
	if getenv != nil {
		ApplyEnv(&cfg, getenv)
	}
	return cfg, err
}

func fromSnapshot(configPath string) (Config, error) {
	// Bounded, and never blocking on a FIFO; config.toml may be a link
	// into the person's dotfiles.
	text, _, err := safefile.Read(configPath, safefile.MaxRead, safefile.Follow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Default(), nil
	case err != nil:
		return Default(), fmt.Errorf("reading the settings: %w", err)
	}
	data, _, err := safefile.Read(SnapshotPath(configPath), safefile.MaxRead, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), ErrStale
	}
	if err != nil {
		return Default(), fmt.Errorf("reading the hook's copy of the settings: %w", err)
	}
	// Start from the defaults: a key the copy lacks keeps its default.
	snap, err := readSnapshot(data)
	if err != nil || snap.Version != snapshotVersion {
		return Default(), ErrStale
	}
	if snap.Source != sourceHash(text) {
		return snap.Config, ErrStale
	}
	return snap.Config, nil
}

// readSnapshot decodes the hook's copy of the settings over the defaults.
func readSnapshot(data []byte) (snapshot, error) {
	snap := snapshot{Config: Default()}
	err := json.Unmarshal(data, &snap)
	return snap, err
}
