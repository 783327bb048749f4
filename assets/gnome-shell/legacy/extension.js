// hud's window helper for GNOME Shell 43 and 44 (the format before ES
// modules). On Wayland no program may raise or list another program's
// windows, and GNOME keeps its own window list (Introspect, Eval) from
// outside programs too, so hud asks the shell itself, over the session
// bus, for the two things it needs: bring a terminal's window forward, and
// say which process owns the focused window. Nothing else is exported.
// esm/extension.js is the same for GNOME 45 and later; keep them alike.

const {Gio, Meta} = imports.gi;
const Main = imports.ui.main;

const PATH = '/io/github/capacitor_hud/Shell';
const IFACE = `<node>
  <interface name="io.github.capacitor_hud.Shell1">
    <method name="Activate">
      <arg name="pids" type="au" direction="in"/>
      <arg name="pid" type="u" direction="out"/>
    </method>
    <method name="FocusedPid">
      <arg name="pid" type="u" direction="out"/>
    </method>
  </interface>
</node>`;

// hud's windows: normal ones that show in the taskbar (not a terminal's
// dropdown or a desktop icon), most recently used first, so a terminal
// with several windows gives the one the person used last.
function windows() {
    return global.display.get_tab_list(Meta.TabList.NORMAL_ALL, null)
        .filter(w => w.get_window_type() === Meta.WindowType.NORMAL && !w.skip_taskbar);
}

class Service {
    // Activate brings forward the window of the first of pids (a process
    // and its ancestors, nearest first) that owns one, and returns that
    // pid; 0 when none does.
    Activate(pids) {
        const list = windows();
        for (const pid of pids) {
            const win = list.find(w => w.get_pid() === pid);
            if (win) {
                Main.activateWindow(win);
                return pid;
            }
        }
        return 0;
    }

    // FocusedPid is the process that owns the focused window; 0 for none
    // (or one whose process the shell does not know: get_pid() < 1).
    FocusedPid() {
        const pid = global.display.focus_window?.get_pid() ?? 0;
        return Math.max(pid, 0);
    }
}

class Extension {
    enable() {
        this._dbus = Gio.DBusExportedObject.wrapJSObject(IFACE, new Service());
        this._dbus.export(Gio.DBus.session, PATH);
    }

    disable() {
        this._dbus.unexport();
        this._dbus = null;
    }
}

function init() {
    return new Extension();
}
