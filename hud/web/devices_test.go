package web

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// clock is a settable time for Devices.Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newDevices(t *testing.T) (*Devices, *clock) {
	c := &clock{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	d := DevicesIn(filepath.Join(t.TempDir(), "web"))
	d.Now = c.now
	return d, c
}

func TestDevicesFileHoldsNoSecret(t *testing.T) {
	d, _ := newDevices(t)
	spent, err := d.NewPairing()
	if err != nil {
		t.Fatal(err)
	}
	token, id, err := d.Pair(spent, "phone")
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := d.NewPairing()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("%s has mode %v, want 0600", d.Path, perm)
	}
	di, err := os.Stat(filepath.Dir(d.Path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := di.Mode().Perm(); perm != 0o700 {
		t.Errorf("%s has mode %v, want 0700", filepath.Dir(d.Path), perm)
	}
	b, err := os.ReadFile(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"the pairing secret spent": spent, "the pairing secret waiting": waiting, "the device token": token} {
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("%s is in the file in clear:\n%s", what, b)
		}
		if !bytes.Contains(b, []byte(hashOf(s))) && s != spent {
			t.Errorf("%s's hash is not in the file:\n%s", what, b)
		}
	}
	if got, err := d.Device(token); err != nil || got != id {
		t.Errorf("Device(token) = %q, %v; want %q", got, err, id)
	}
	if _, err := d.Device(hashOf(token)); !errors.Is(err, ErrNotPaired) {
		t.Errorf("Device(the hash in the file) = %v, want ErrNotPaired", err)
	}
}

func TestPairingSpentOnce(t *testing.T) {
	d, clk := newDevices(t)
	link, _ := d.NewPairing()
	late, _ := d.NewPairing()
	if _, _, err := d.Pair(link, "a"); err != nil {
		t.Fatalf("first use: %v", err)
	}
	clk.t = clk.t.Add(PairingLife - time.Second)
	just, _ := d.NewPairing()
	for _, c := range []struct {
		name, secret string
		after        time.Duration
	}{
		{"used twice", link, 0},
		{"wrong", "not-a-pairing-secret", 0},
		{"empty", "", 0},
		{"expired", late, time.Second},
	} {
		clk.t = clk.t.Add(c.after)
		if _, _, err := d.Pair(c.secret, "b"); !errors.Is(err, ErrNotPaired) {
			t.Errorf("a pairing link %s: %v, want ErrNotPaired", c.name, err)
		}
	}
	if _, _, err := d.Pair(just, "c"); err != nil {
		t.Errorf("a link a second short of PairingLife: %v", err)
	}
	if devices, links, err := d.Count(); devices != 2 || links != 0 || err != nil {
		t.Errorf("Count = %d devices, %d links, %v; want 2, 0", devices, links, err)
	}
}

func TestRevokeAllFromAnotherProcess(t *testing.T) {
	d, _ := newDevices(t)
	link, _ := d.NewPairing()
	token, _, err := d.Pair(link, "phone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Device(token); err != nil {
		t.Fatal(err)
	}
	other := &Devices{Path: d.Path} // hud serve --revoke
	waiting, _ := other.NewPairing()
	if n, err := other.RevokeAll(); n != 1 || err != nil {
		t.Fatalf("RevokeAll = %d, %v; want 1", n, err)
	}
	if _, err := d.Device(token); !errors.Is(err, ErrNotPaired) {
		t.Errorf("a revoked device: %v, want ErrNotPaired", err)
	}
	if _, _, err := d.Pair(waiting, "phone"); !errors.Is(err, ErrNotPaired) {
		t.Errorf("a link made before RevokeAll: %v, want ErrNotPaired", err)
	}
	if devices, links, err := d.Count(); devices != 0 || links != 0 || err != nil {
		t.Errorf("Count after RevokeAll = %d, %d, %v", devices, links, err)
	}
}

func TestDeviceUnknownToken(t *testing.T) {
	d, _ := newDevices(t)
	for _, token := range []string{"", "x", "garbage-token"} {
		if _, err := d.Device(token); !errors.Is(err, ErrNotPaired) {
			t.Errorf("Device(%q) with no file: %v, want ErrNotPaired", token, err)
		}
	}
	link, _ := d.NewPairing()
	if _, err := d.Device(link); !errors.Is(err, ErrNotPaired) {
		t.Errorf("a pairing secret as a device token: %v, want ErrNotPaired", err)
	}
}
