// Package terminal holds where a session's agent runs (its tmux pane, its
// terminal window, the sockets to reach them), as the hook learns it from
// the environment the agent passed on, and the shape each field must have
// before a reader trusts it: the store is only a file.
package terminal
