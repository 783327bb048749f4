// Package web is hud's page: every session, local and remote, with its
// dialogs and their choices, the next break, the usage limits and the
// day's timeline, live in a browser on a desk or a phone, answered from
// there. The tray (or `hud serve`, the same loop without an icon) hands it
// each picture it draws (Publish); the page's actions go back through the
// tray's own answering and menu (Actions).
//
// Nothing is served to a browser that was not paired: `hud serve --pair`
// mints a one-time link whose secret sits in the URL's fragment (never
// sent to a server, never in a log), which the page exchanges for a device
// cookie (HttpOnly, SameSite=Strict, Secure over TLS). Every action is a
// POST with a CSRF token tied to the device, from the page's own origin;
// wrong tokens are rate-limited; `hud serve --revoke` ends every device.
// Listening beyond the loopback needs TLS, or a flag that names the risk.
// See docs/web.md and the threat model in docs/security.md.
package web
