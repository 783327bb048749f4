// hud: reports this opencode's sessions to the hud tray (working, waiting,
// ready), the way hud's hook does for Claude Code. Written by
// `hud install opencode`; `hud uninstall opencode` removes it.
//
// For each bus event that carries state it runs `hud-hook opencode <event>`
// with the event's properties as JSON on stdin. The runs go one at a time,
// in order (the state machine needs them so), and opencode never waits for
// them: the handler returns at once, and a hook that hangs is let go after
// five seconds.
import { spawn } from "node:child_process"

const HOOK = __HUD_HOOK__
const EVENTS = new Set([
  "session.created", "session.status", "session.idle", "session.error", "session.deleted",
  "permission.asked", "permission.replied",
  "question.asked", "question.replied", "question.rejected",
])

export const HudPlugin = async ({ directory }) => {
  let queue = Promise.resolve()
  // The asks still open, by request id: an answer names only the request,
  // and hud needs the call it answers.
  const asked = new Map()

  const run = (event, properties) => new Promise((resolve) => {
    try {
      const child = spawn(HOOK, ["opencode", event], { stdio: ["pipe", "ignore", "ignore"] })
      const timer = setTimeout(() => { child.kill(); resolve() }, 5000)
      child.on("error", () => { clearTimeout(timer); resolve() })
      child.on("exit", () => { clearTimeout(timer); resolve() })
      child.stdin.on("error", () => {})
      child.stdin.end(JSON.stringify({ ...properties, directory }))
    } catch {
      resolve()
    }
  })
  const send = (event, properties) => {
    queue = queue.then(() => run(event, properties), () => run(event, properties))
  }

  return {
    event: async ({ event }) => {
      if (!event || !EVENTS.has(event.type)) return
      const p = event.properties ?? {}
      if (event.type === "permission.asked" || event.type === "question.asked") {
        asked.set(p.id, p)
      }
      if (event.type === "permission.replied" || event.type === "question.replied" || event.type === "question.rejected") {
        send(event.type, { ...p, asked: asked.get(p.requestID) })
        asked.delete(p.requestID)
        return
      }
      send(event.type, p)
    },
    // The person's prompt, which no bus event carries whole.
    "chat.message": async (input, output) => {
      const text = (output?.parts ?? []).filter((part) => part.type === "text" && !part.synthetic).map((part) => part.text).join("\n")
      send("chat.message", { sessionID: input.sessionID, prompt: text })
    },
  }
}
