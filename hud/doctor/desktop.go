package doctor

// The names a tray icon and a notification need on the session bus.
const (
	watcherName       = "org.kde.StatusNotifierWatcher"
	notificationsName = "org.freedesktop.Notifications"
)

// checkTrayHost asks whether anything on the session bus shows
// StatusNotifierItem icons (systray registers with the watcher).
func checkTrayHost(env *Env) []Finding {
	if env.Bus == nil && env.BusErr == nil {
		return nil // not a D-Bus desktop (macOS): the menu bar is always there
	}
	if env.BusErr != nil {
		return []Finding{fail("run hud inside your desktop session (DBUS_SESSION_BUS_ADDRESS must be set)",
			"no D-Bus session bus: %v", env.BusErr)}
	}
	has, err := env.Bus.NameHasOwner(watcherName)
	if err != nil {
		return []Finding{fail("check the session bus (busctl --user list)", "asking the session bus: %v", err)}
	}
	if !has {
		return []Finding{fail("on GNOME, install and enable the \"AppIndicator and KStatusNotifierItem Support\" extension; elsewhere, add a system tray (status notifier) to your panel",
			"nothing on the session bus shows tray icons (%s has no owner)", watcherName)}
	}
	return []Finding{ok("a tray host owns %s", watcherName)}
}

// checkNotifications asks for a notification daemon. Without one the tray
// still works; only the pop-ups are lost.
func checkNotifications(env *Env) []Finding {
	if env.Bus == nil {
		return nil // no bus: already reported by the tray host check, or macOS
	}
	has, err := env.Bus.NameHasOwner(notificationsName)
	if err != nil {
		return []Finding{warn("check the session bus (busctl --user list)", "asking the session bus: %v", err)}
	}
	if !has {
		return []Finding{warn("install a notification daemon (dunst, mako, or your desktop's own)",
			"no notification daemon: the HUD cannot pop up \"waiting\" notices")}
	}
	return []Finding{ok("a notification daemon owns %s", notificationsName)}
}
