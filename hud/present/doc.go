// Package present is the tray's presenter: it turns the live sessions (one
// view.Session each) into what the tray shows — the icon, the macOS title,
// the tooltip and the menu rows — and the next moment that picture changes
// by itself (a "since" label ticking over, a fresh record expiring). It is
// pure — sessions, a clock reading and a few settings in, a View out — so
// every rule is table-tested without a tray; hud/app draws the View.
package present
