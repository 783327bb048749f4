// Package doctor answers "why does the HUD show nothing?": it checks each
// link of the chain from Claude Code to the tray icon (hooks wired and
// runnable, and where: the user settings of every followed config
// directory, project settings, the live sessions' projects; hooks not
// disabled, the followed config directories, the store, the lock directories, the last
// event the hook logged, a tray host on the session bus, the tray itself
// and whether it starts at login, a notification daemon, the config file,
// the permissions of our files) and says for each what is wrong and how
// to fix it.
//
// Every check is a function of an Env, which names the files and stands
// in for the session bus and the process table, so tests build broken
// setups in a temp directory.
package doctor
