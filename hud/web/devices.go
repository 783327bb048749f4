package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// Devices are the paired browsers and the pairing links not used yet,
// kept in one file so that `hud serve --pair` and `--revoke`, in another
// process, reach the running server. Only SHA-256 hashes of the secrets
// are kept: the file gives no one a way in.
type Devices struct {
	Path string
	Now  func() time.Time

	mu      sync.Mutex
	loaded  time.Time // the file's modification time when read
	size    int64
	current devicesFile
}

type devicesFile struct {
	Devices  []device  `json:"devices"`
	Pairings []pairing `json:"pairings"`
}

type device struct {
	ID      string    `json:"id"`
	Hash    string    `json:"hash"`
	Label   string    `json:"label"`
	Created time.Time `json:"created"`
}

type pairing struct {
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
}

// PairingLife is how long a pairing link works, once.
const PairingLife = 10 * time.Minute

// maxDevicesFile bounds the file's read.
const maxDevicesFile = 1 << 20

// ErrNotPaired says a secret is no device's, or no live pairing's.
var ErrNotPaired = errors.New("not paired")

// secret is 256 random bits, URL-safe.
func secret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// NewPairing adds a one-time pairing secret, valid for PairingLife, and
// returns it: the link `hud serve --pair` prints carries it.
func (d *Devices) NewPairing() (string, error) {
	s, err := secret()
	if err != nil {
		return "", err
	}
	err = d.edit(func(f *devicesFile, now time.Time) {
		f.Pairings = append(f.Pairings, pairing{Hash: hashOf(s), Expires: now.Add(PairingLife)})
	})
	return s, err
}

// Pair spends a pairing secret on a new device and returns the device's
// own secret (its cookie) and id. A secret used, expired or unknown is
// ErrNotPaired.
func (d *Devices) Pair(pairingSecret, label string) (token, id string, err error) {
	token, err = secret()
	if err != nil {
		return "", "", err
	}
	id, err = secret()
	if err != nil {
		return "", "", err
	}
	id = id[:12]
	found := false
	err = d.edit(func(f *devicesFile, now time.Time) {
		h := hashOf(pairingSecret)
		i := slices.IndexFunc(f.Pairings, func(p pairing) bool { return equal(p.Hash, h) && now.Before(p.Expires) })
		if i < 0 {
			return
		}
		found = true
		f.Pairings = slices.Delete(f.Pairings, i, i+1)
		f.Devices = append(f.Devices, device{ID: id, Hash: hashOf(token), Label: label, Created: now})
	})
	if err == nil && !found {
		err = ErrNotPaired
	}
	return token, id, err
}

// Device returns the id of the device whose secret token is, or
// ErrNotPaired.
func (d *Devices) Device(token string) (string, error) {
	if token == "" {
		return "", ErrNotPaired
	}
	f, err := d.read()
	if err != nil {
		return "", err
	}
	h := hashOf(token)
	for _, dev := range f.Devices {
		if equal(dev.Hash, h) {
			return dev.ID, nil
		}
	}
	return "", ErrNotPaired
}

// Count is how many devices are paired and how many links wait.
func (d *Devices) Count() (devices, pairings int, err error) {
	f, err := d.read()
	now := d.now()
	for _, p := range f.Pairings {
		if now.Before(p.Expires) {
			pairings++
		}
	}
	return len(f.Devices), pairings, err
}

// RevokeAll forgets every device and every pairing link: each browser must
// be paired again.
func (d *Devices) RevokeAll() (int, error) {
	n := 0
	err := d.edit(func(f *devicesFile, _ time.Time) {
		n = len(f.Devices)
		*f = devicesFile{}
	})
	return n, err
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func (d *Devices) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// read returns the file as it is now, read again only when it changed.
func (d *Devices) read() (devicesFile, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fi, err := os.Lstat(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		d.current, d.loaded = devicesFile{}, time.Time{}
		return d.current, nil
	}
	if err != nil {
		return devicesFile{}, err
	}
	if fi.ModTime().Equal(d.loaded) && fi.Size() == d.size {
		return d.current, nil
	}
	f, err := load(d.Path)
	if err != nil {
		return devicesFile{}, err
	}
	d.current, d.loaded, d.size = f, fi.ModTime(), fi.Size()
	return f, nil
}

func load(path string) (devicesFile, error) {
	b, _, err := safefile.Read(path, maxDevicesFile, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return devicesFile{}, nil
	}
	if err != nil {
		return devicesFile{}, fmt.Errorf("reading the paired devices: %w", err)
	}
	var f devicesFile
	if err := json.Unmarshal(b, &f); err != nil {
		return devicesFile{}, fmt.Errorf("reading the paired devices (%s): %w", path, err)
	}
	return f, nil
}

// edit changes the file under its lock, dropping expired pairings.
func (d *Devices) edit(change func(f *devicesFile, now time.Time)) error {
	if err := os.MkdirAll(filepath.Dir(d.Path), 0o700); err != nil {
		return err
	}
	unlock, err := safefile.Lock(d.Path+".lock", 5*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := load(d.Path)
	if err != nil {
		return err
	}
	now := d.now()
	f.Pairings = slices.DeleteFunc(f.Pairings, func(p pairing) bool { return !now.Before(p.Expires) })
	change(&f, now)
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.Replace(d.Path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing the paired devices: %w", err)
	}
	d.mu.Lock()
	d.loaded = time.Time{}
	d.mu.Unlock()
	return nil
}
