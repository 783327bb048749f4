package doctor

import (
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/internal/bustest"
)

// TestSessionBusAnswersNameHasOwner runs the two desktop checks against a
// real bus: nothing owns the names, then a stand-in tray host and
// notification daemon take them.
func TestSessionBusAnswersNameHasOwner(t *testing.T) {
	addr := bustest.Start(t)
	getenv := func(k string) string {
		if k == "DBUS_SESSION_BUS_ADDRESS" {
			return addr
		}
		return ""
	}
	bus, closeBus, err := SessionBus(getenv)
	if err != nil {
		t.Fatal(err)
	}
	defer closeBus()
	env := &Env{Bus: bus}
	if f := checkTrayHost(env); f[0].Severity != Fail {
		t.Errorf("empty bus: tray host %+v; want a failure", f)
	}
	if f := checkNotifications(env); f[0].Severity != Warn {
		t.Errorf("empty bus: notifications %+v; want a warning", f)
	}

	owner, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	for _, name := range []string{watcherName, notificationsName} {
		if reply, err := owner.RequestName(name, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
			t.Fatalf("RequestName(%s) = %v, %v", name, reply, err)
		}
	}
	if f := checkTrayHost(env); f[0].Severity != OK {
		t.Errorf("with a watcher: %+v", f)
	}
	if f := checkNotifications(env); f[0].Severity != OK {
		t.Errorf("with a notification daemon: %+v", f)
	}
}

func TestSessionBusWithoutAddress(t *testing.T) {
	_, closeBus, err := SessionBus(func(string) string { return "" })
	defer closeBus()
	if err == nil || !strings.Contains(err.Error(), "DBUS_SESSION_BUS_ADDRESS is not set") {
		t.Errorf("err = %v", err)
	}
}
