package wayland

import (
	"context"
	"errors"
	"fmt"
)

// Client is a connection to the compositor with its globals read: enough
// to bind an interface and send it requests. Events are read by the
// caller (Watcher) or dropped (Sync).
type Client struct {
	c        *conn
	registry uint32
	globals  map[string]Global
}

// Global is one interface the compositor offers.
type Global struct {
	Name    uint32
	Version uint32
}

// Dial connects to the compositor listening at path and reads its
// globals; ctx bounds both.
func Dial(ctx context.Context, path string) (*Client, error) {
	c, err := dial(ctx, path)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	cl := &Client{c: c, registry: c.newID(), globals: map[string]Global{}}
	err = cl.readGlobals()
	if !stop() || err != nil {
		c.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("talking to the compositor: %w", ctx.Err())
		}
		return nil, err
	}
	return cl, nil
}

func (cl *Client) readGlobals() error {
	if err := cl.c.send(displayID, 1, new(message).uint(cl.registry)); err != nil { // get_registry
		return err
	}
	return cl.roundTrip(func(e event) error {
		if e.object != cl.registry || e.opcode != 0 { // global
			return nil
		}
		off := 0
		name, err := e.uintArg(&off)
		iface, err2 := e.stringArg(&off)
		version, err3 := e.uintArg(&off)
		if err := errors.Join(err, err2, err3); err != nil {
			return fmt.Errorf("reading the compositor's globals: %w", err)
		}
		if _, seen := cl.globals[iface]; !seen { // the first seat is the person's
			cl.globals[iface] = Global{name, version}
		}
		return nil
	})
}

// Global returns the first global of interface iface, if offered.
func (cl *Client) Global(iface string) (Global, bool) {
	g, ok := cl.globals[iface]
	return g, ok
}

// Bind binds the first global of interface iface at version, or the one
// offered if older, and returns the new object's id and its version.
func (cl *Client) Bind(iface string, version uint32) (id, bound uint32, err error) {
	g, ok := cl.globals[iface]
	if !ok {
		return 0, 0, fmt.Errorf("the compositor offers no %s", iface)
	}
	bound = min(version, g.Version)
	id = cl.c.newID()
	err = cl.c.send(cl.registry, 0, new(message).uint(g.Name).string(iface).uint(bound).uint(id)) // bind
	return id, bound, err
}

// NewID reserves an id for an object a request creates.
func (cl *Client) NewID() uint32 { return cl.c.newID() }

// Request sends request opcode to object, with its arguments in order:
// each a uint32 (uint, object, new_id), an int32 (int, fixed) or a string.
func (cl *Client) Request(object uint32, opcode uint16, args ...any) error {
	m := new(message)
	for _, a := range args {
		switch v := a.(type) {
		case uint32:
			m.uint(v)
		case int32:
			m.uint(uint32(v))
		case string:
			m.string(v)
		default:
			return fmt.Errorf("a request argument of type %T", a)
		}
	}
	return cl.c.send(object, opcode, m)
}

// Sync waits until the compositor has handled every request sent, and
// returns its refusal of any; events meanwhile are dropped. ctx bounds it.
func (cl *Client) Sync(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() { cl.c.Close() })
	err := cl.roundTrip(func(event) error { return nil })
	if !stop() {
		return fmt.Errorf("talking to the compositor: %w", ctx.Err())
	}
	return err
}

// roundTrip sends wl_display.sync and hands every event to f until the
// compositor answers it: by then it has handled every request before.
func (cl *Client) roundTrip(f func(event) error) error {
	c := cl.c
	callback := c.newID()
	if err := c.send(displayID, 0, new(message).uint(callback)); err != nil { // sync
		return err
	}
	for {
		e, err := c.read()
		if err != nil {
			return fmt.Errorf("reading from the compositor: %w", err)
		}
		switch {
		case e.object == displayID && e.opcode == 0:
			return displayError(e)
		case e.object == callback && e.opcode == 0: // done
			return nil
		}
		if err := f(e); err != nil {
			return err
		}
	}
}

// Close ends the connection.
func (cl *Client) Close() error { return cl.c.Close() }
