// Package remote tests hud's remote machines against a real sshd: Debian's
// openssh-server, started by the test on a free loopback port with a
// throwaway host key, user key and sshd_config of its own, serving a
// "remote" HOME where stand-in Claude processes run the real hook. The
// local hud reaches it through HUD_SSH_COMMAND (ssh with the test's key
// and port) and a per-remote command that gives the remote hud that HOME,
// the way a person points hud at one that is not on ssh's PATH.
//
// scripts/remote/run.sh (make remote-test) runs it; without
// HUD_REMOTE_TEST=1 the tests skip.
package remote
