// Package hostile is the adversarial suite: the real hud-hook and hud,
// built once, run against a repository and a home set up by an attacker,
// each attack in a throwaway HOME. Every test asserts what the HUD
// promises whatever it is fed: the hook exits 0 and prints nothing,
// within its 5 s bound and 100 MB (max RSS, from wait4's rusage); nothing
// recorded is lost; no file is written outside hud's own directories and
// the project's .claude/; no command a repository names is run.
//
// It runs with `make unit` (plain `go test ./scripts/hostile`), and on
// its own with `make hostile`. Attacks that need a second user or a tiny
// file system set them up when run as root (CI runs as root) and skip,
// saying why, elsewhere. Linux only: it reads /proc to wait for the
// detached helpers the hook starts.
package hostile
