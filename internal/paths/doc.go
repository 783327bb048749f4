// Package paths names where hud's files and Claude Code's live, relative to
// one home (Layout, so code and tests never read $HOME), and the one path
// normalizer every reader and the hook share (Normalize, Compare,
// ProjectRoot): a record's cwd, a lock's path and a queried project must
// compare equal however they were spelled.
package paths
