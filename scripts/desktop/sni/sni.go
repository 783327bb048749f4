// Package sni reads a tray icon back over D-Bus the way a tray host sees
// it: the StatusNotifierItem a process registered with the
// StatusNotifierWatcher, its properties (ToolTip, IconPixmap, Title) and
// its com.canonical.dbusmenu menu, and it watches the notifications sent
// to org.freedesktop.Notifications. The desktop test and the tray
// benchmark use it; nothing in the HUD itself does.
package sni

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

const (
	watcherName  = "org.kde.StatusNotifierWatcher"
	watcherPath  = "/StatusNotifierWatcher"
	itemIface    = "org.kde.StatusNotifierItem"
	menuIface    = "com.canonical.dbusmenu"
	defaultPath  = "/StatusNotifierItem"
	notifyIface  = "org.freedesktop.Notifications"
	busInterface = "org.freedesktop.DBus"
)

// Item is one registered StatusNotifierItem.
type Item struct {
	conn *dbus.Conn
	// Bus is the unique bus name of the process that owns the item.
	Bus  string
	Path dbus.ObjectPath
}

// FindItem returns the item registered with the watcher by process pid,
// waiting up to timeout for it to appear.
func FindItem(conn *dbus.Conn, pid int, timeout time.Duration) (*Item, error) {
	deadline := time.Now().Add(timeout)
	for {
		items, err := Registered(conn)
		if err == nil {
			for _, it := range items {
				bus, path := splitItem(it)
				var owner uint32
				if conn.BusObject().Call(busInterface+".GetConnectionUnixProcessID", 0, bus).Store(&owner) == nil && int(owner) == pid {
					return &Item{conn: conn, Bus: bus, Path: path}, nil
				}
			}
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("registered items: %q", items)
			}
			return nil, fmt.Errorf("no item of pid %d registered with the tray host within %v: %w", pid, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ItemOf returns the item process pid exports at the default path, found
// among the bus's connections rather than through a watcher: on a bus no
// tray host is on, the process exports its item all the same. It waits
// up to timeout for the item to answer.
func ItemOf(conn *dbus.Conn, pid int, timeout time.Duration) (*Item, error) {
	deadline := time.Now().Add(timeout)
	for {
		var names []string
		err := conn.BusObject().Call(busInterface+".ListNames", 0).Store(&names)
		for _, bus := range names {
			var owner uint32
			if !strings.HasPrefix(bus, ":") ||
				conn.BusObject().Call(busInterface+".GetConnectionUnixProcessID", 0, bus).Store(&owner) != nil || int(owner) != pid {
				continue
			}
			it := &Item{conn: conn, Bus: bus, Path: defaultPath}
			var id string
			if it.prop("Id", &id) == nil {
				return it, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no item of pid %d on the bus within %v (%v)", pid, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// splitItem splits a registered item into its bus name and object path.
// Watchers write it "<bus name>/<object path>", except GNOME's (the
// AppIndicator extension), which writes "<bus name>@<object path>". A bus
// name holds neither character.
func splitItem(item string) (string, dbus.ObjectPath) {
	if i := strings.IndexAny(item, "/@"); i >= 0 {
		return item[:i], dbus.ObjectPath("/" + strings.TrimPrefix(item[i+1:], "/"))
	}
	return item, defaultPath
}

// Registered lists the watcher's RegisteredStatusNotifierItems
// ("<bus name>/<object path>", or "<bus name>@<object path>" on GNOME).
func Registered(conn *dbus.Conn) ([]string, error) {
	v, err := conn.Object(watcherName, watcherPath).GetProperty(watcherName + ".RegisteredStatusNotifierItems")
	if err != nil {
		return nil, fmt.Errorf("asking the StatusNotifierWatcher: %w", err)
	}
	var items []string
	if err := v.Store(&items); err != nil {
		return nil, err
	}
	return items, nil
}

// Pixmap is one icon image: ARGB32 in network byte order.
type Pixmap struct {
	W, H int32
	Pix  []byte
}

// ToolTip is the item's ToolTip property.
type ToolTip struct {
	IconName string
	Icons    []Pixmap
	Title    string
	Text     string
}

func (it *Item) prop(name string, out any) error {
	v, err := it.conn.Object(it.Bus, it.Path).GetProperty(itemIface + "." + name)
	if err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	if err := v.Store(out); err != nil {
		return fmt.Errorf("decoding %s (%s): %w", name, v.Signature(), err)
	}
	return nil
}

// ToolTip reads the ToolTip property.
func (it *Item) ToolTip() (ToolTip, error) {
	var tt ToolTip
	err := it.prop("ToolTip", &tt)
	return tt, err
}

// Title reads the Title property.
func (it *Item) Title() (string, error) {
	var s string
	err := it.prop("Title", &s)
	return s, err
}

// IconPixmap reads the IconPixmap property.
func (it *Item) IconPixmap() ([]Pixmap, error) {
	var px []Pixmap
	err := it.prop("IconPixmap", &px)
	return px, err
}

// MenuItem is one entry of the item's menu.
type MenuItem struct {
	ID        int32
	Label     string
	Visible   bool
	Enabled   bool
	Separator bool
}

// Menu reads the whole menu with com.canonical.dbusmenu.GetLayout.
func (it *Item) Menu() ([]MenuItem, error) {
	path, err := it.menuPath()
	if err != nil {
		return nil, err
	}
	var revision uint32
	var root []any
	call := it.conn.Object(it.Bus, path).Call(menuIface+".GetLayout", 0, int32(0), int32(-1), []string{})
	if err := call.Store(&revision, &root); err != nil {
		return nil, fmt.Errorf("GetLayout: %w", err)
	}
	var out []MenuItem
	if err := flatten(root, &out, true); err != nil {
		return nil, err
	}
	return out, nil
}

func (it *Item) menuPath() (dbus.ObjectPath, error) {
	var path dbus.ObjectPath
	if err := it.prop("Menu", &path); err != nil {
		return "", err
	}
	return path, nil
}

// flatten walks a (ia{sv}av) layout node; the root itself is not an item.
func flatten(node []any, out *[]MenuItem, root bool) error {
	if len(node) != 3 {
		return fmt.Errorf("menu node has %d fields, want 3", len(node))
	}
	id, _ := node[0].(int32)
	props, _ := node[1].(map[string]dbus.Variant)
	children, _ := node[2].([]dbus.Variant)
	if !root {
		m := MenuItem{ID: id, Visible: true, Enabled: true}
		if v, ok := props["label"]; ok {
			raw, _ := v.Value().(string)
			m.Label = ShownLabel(raw)
		}
		if v, ok := props["visible"]; ok {
			m.Visible, _ = v.Value().(bool)
		}
		if v, ok := props["enabled"]; ok {
			m.Enabled, _ = v.Value().(bool)
		}
		if v, ok := props["type"]; ok {
			t, _ := v.Value().(string)
			m.Separator = t == "separator"
		}
		*out = append(*out, m)
	}
	for _, c := range children {
		child, ok := c.Value().([]any)
		if !ok {
			return errors.New("menu child is not a layout node")
		}
		if err := flatten(child, out, false); err != nil {
			return err
		}
	}
	return nil
}

// VisibleLabels returns the labels of the visible, non-separator items.
func VisibleLabels(items []MenuItem) []string {
	var out []string
	for _, m := range items {
		if m.Visible && !m.Separator {
			out = append(out, m.Label)
		}
	}
	return out
}

// Click sends the "clicked" event for menu item id, as a host does when
// the person picks it.
func (it *Item) Click(id int32) error {
	path, err := it.menuPath()
	if err != nil {
		return err
	}
	call := it.conn.Object(it.Bus, path).Call(menuIface+".Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
	return call.Err
}

// OpenMenu sends the "opened" event for the root menu.
func (it *Item) OpenMenu() error {
	path, err := it.menuPath()
	if err != nil {
		return err
	}
	return it.conn.Object(it.Bus, path).Call(menuIface+".Event", 0, int32(0), "opened", dbus.MakeVariant(""), uint32(time.Now().Unix())).Err
}

// Notification is one Notify call seen on the bus.
type Notification struct {
	AppName, Summary, Body string
	// Actions are the buttons offered, key and label in turn.
	Actions []string
	At      time.Time
}

// WatchNotifications opens a second connection that monitors every
// org.freedesktop.Notifications.Notify call on the bus and sends each to
// ch. Close the returned connection to stop.
func WatchNotifications(ch chan<- Notification) (*dbus.Conn, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, err
	}
	rule := fmt.Sprintf("type='method_call',interface='%s',member='Notify'", notifyIface)
	if err := conn.BusObject().Call("org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, []string{rule}, uint32(0)).Err; err != nil {
		conn.Close()
		return nil, fmt.Errorf("becoming a bus monitor: %w", err)
	}
	msgs := make(chan *dbus.Message, 64)
	conn.Eavesdrop(msgs)
	go func() {
		for m := range msgs {
			if len(m.Body) < 5 {
				continue
			}
			n := Notification{At: time.Now()}
			n.AppName, _ = m.Body[0].(string)
			n.Summary, _ = m.Body[3].(string)
			n.Body, _ = m.Body[4].(string)
			if len(m.Body) > 5 {
				n.Actions, _ = m.Body[5].([]string)
			}
			ch <- n
		}
	}()
	return conn, nil
}

// ShownLabel is what a dbusmenu host shows of a label: "__" is one
// underscore; a single one marks the access key and is not shown.
func ShownLabel(label string) string {
	var b strings.Builder
	for i := 0; i < len(label); i++ {
		if label[i] == '_' {
			if i+1 < len(label) && label[i+1] == '_' {
				b.WriteByte('_')
				i++
			}
			continue
		}
		b.WriteByte(label[i])
	}
	return b.String()
}
