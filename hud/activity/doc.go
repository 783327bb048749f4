// Package activity remembers what each Claude Code session has done: the
// files it edited, its todo list, the agents it ran and the commits that
// appeared in its repository. From that it writes the checkpoint
// <project>/.claude/.project-state.json, the append-only logs
// commit-log.jsonl and agent-invocations.jsonl, and a handoff snapshot that
// survives context compaction.
//
// The hook only does what costs nothing: it folds tool events into a small
// per-session file. Anything that runs git happens in a detached worker
// (the hook binary in a hidden mode), never in Claude's time.
package activity
