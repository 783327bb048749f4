package settings

import (
	"encoding/json"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/reflectfill"
)

// TestDecodeSnapshot: the hook's copy, as json.Marshal writes it with
// every field of Config set (found by reflection, so a field added to
// Config is covered), is read by hand, to encoding/json's result.
func TestDecodeSnapshot(t *testing.T) {
	var cfg Config
	if err := reflectfill.Fill(reflect.ValueOf(&cfg).Elem(), nil); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(snapshot{Version: snapshotVersion, Source: "abc", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	// The push URL may hold a token; the hook never needs it, so its copy
	// leaves it out and reads back the default.
	if strings.Contains(string(data), cfg.Notifications.PushURL) {
		t.Errorf("the hook's copy holds the push URL: %s", data)
	}
	cfg.Notifications.PushURL = Default().Notifications.PushURL
	snap := snapshot{Config: Default()}
	if !decodeSnapshot(data, &snap) {
		t.Fatalf("the hook's own copy was left to encoding/json: %s", data)
	}
	if snap.Config != cfg || snap.Version != snapshotVersion || snap.Source != "abc" {
		t.Errorf("read %+v\nwant %+v", snap, cfg)
	}
	checkSnapshot(t, data)
	for _, in := range []string{
		`{"version":1,"config":{"Breaks":{"Enabled":false}}}`,
		`{"version":1,"config":{"Breaks":{"Enabled":false},"Breaks":{"MicroInterval":5}}}`,
		`{"version":1,"config":{"breaks":{"enabled":false}}}`,
		`{"version":1,"config":{"Breaks":{"QuietHours":{"Start":60,"End":120,"Set":true}}}}`,
		`{"version":1,"config":{"Breaks":{"Enabled":"yes"}}}`,
		`{"version":1,"config":{"Breaks":{"MicroInterval":1.5}}}`,
		`{"version":1,"config":{"Breaks":null,"Tray":{"ShowTitle":null}}}`,
		`{"version":1,"config":{"Nope":1}}`,
		`{"version":"1"}`,
		`{"version":99999999999999999999}`,
		`[]`,
		`{} x`,
	} {
		checkSnapshot(t, []byte(in))
	}
}

func FuzzReadSnapshot(f *testing.F) {
	f.Add([]byte(`{"version":1,"source_sha256":"x","config":{"Answer":{"Enabled":true,"Wait":60000000000}}}`))
	f.Fuzz(checkSnapshot)
}

// checkSnapshot fails unless readSnapshot gives encoding/json's result.
func checkSnapshot(t *testing.T, data []byte) {
	want := snapshot{Config: Default()}
	wantErr := json.Unmarshal(data, &want)
	got, err := readSnapshot(data)
	if (err != nil) != (wantErr != nil) || (err == nil && got != want) {
		t.Fatalf("%s: %+v, %v; encoding/json: %+v, %v", data, got, err, want, wantErr)
	}
}

// TestDecodesItself: a field of a type with its own JSON or text decoding
// goes to encoding/json, not through its fields.
func TestDecodesItself(t *testing.T) {
	for typ, want := range map[reflect.Type]bool{
		reflect.TypeFor[time.Time]():     true,
		reflect.TypeFor[netip.Addr]():    true,
		reflect.TypeFor[time.Duration](): false,
		reflect.TypeFor[Config]():        false,
	} {
		if got := decodesItself(typ); got != want {
			t.Errorf("decodesItself(%v) = %v, want %v", typ, got, want)
		}
	}
}
