// Package peercred reads who is at the other end of a Unix socket, as the
// kernel recorded it when the connection was made: the answering socket
// checks its callers with it, and a click checks the terminal's control
// socket it is about to talk to.
package peercred
