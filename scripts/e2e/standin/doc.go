// Package standin is a loopback stand-in for the Anthropic Messages API:
// just enough of it for the real Claude Code CLI to run its interactive loop
// against, with answers steered by the newest user text.
//
// Steering, read from the text of the last user message:
//
//	TOOL:<command>   one Bash tool_use running <command>
//	WRITE:<path>     one Write tool_use writing a small Go file at <path>
//	TODO:<a>|<b>|…   one TodoWrite tool_use: a completed, b in progress, the rest pending
//	                 (older CLIs; 2.1.x keeps its list with the Task tools below)
//	TASK:<subject>   one TaskCreate tool_use: a new task on the session's list
//	TASKDONE:<id>    one TaskUpdate tool_use marking task <id> completed
//	AGENT:<prompt>   one Agent tool_use: a subagent given <prompt>
//	SLOW:<seconds>   a text answer streamed slowly over that many seconds
//	                 ("SLOW:2 TOOL:x": the answer after the tool is slow)
//	ERROR:<status>   an API error with that HTTP status (4xx or 5xx)
//	CONTEXT:<tokens> the answer reports that much context in use (its usage:
//	                 input + cache creation + cache read), beside any other
//	(tool_result)    a turn that carries a tool result gets "Done."
//	anything else    a short text answer
//
// A directive whose tool the CLI defers (2.1.330 offers TaskCreate and
// others only through ToolSearch) is answered with a ToolSearch call that
// loads it first, then with the call itself.
//
// Requests without a Bash tool (titles, summaries and other side requests
// the CLI makes) always get a plain text answer, and a compaction request gets
// a summary, held back by Server.CompactDelay so a watcher can see it run.
//
// It speaks server-sent events the way the real API does (message_start,
// content_block_start, content_block_delta with text_delta or
// input_json_delta, content_block_stop, message_delta with a stop_reason,
// message_stop, and pings), reports the limits of Server.SetLimits in the
// anthropic-ratelimit-unified-* headers when set, answers non-streaming requests in JSON and
// /v1/messages/count_tokens, and logs every path it does not know.
package standin
