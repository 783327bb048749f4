// Command agentstandin serves a stand-in model API for another agent's CLI
// on a loopback address, to run that CLI against by hand:
//
//	go run ./scripts/agents/standin/cmd/agentstandin -api chat -addr 127.0.0.1:8788
//	COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:8788/v1 copilot
//
//	go run ./scripts/agents/standin/cmd/agentstandin -api gemini -addr 127.0.0.1:8789
//	GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:8789 GEMINI_API_KEY=standin gemini
//
// Then type "TOOL:touch x", "SLOW:20", "ERROR:400" or anything else (see
// package standin).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/capacitor-hud/hud/scripts/agents/standin/chat"
	"github.com/capacitor-hud/hud/scripts/agents/standin/gemini"
)

func main() {
	api := flag.String("api", "chat", "which API to serve: `chat` (OpenAI Chat Completions) or gemini")
	addr := flag.String("addr", "127.0.0.1:8788", "loopback `address` to listen on")
	flag.Parse()

	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(os.Stderr, "agentstandin: -addr %q: must be a loopback address such as 127.0.0.1:8788\n", *addr)
		os.Exit(2)
	}
	var h http.Handler
	switch *api {
	case "chat":
		h = chat.New(log.Printf)
	case "gemini":
		h = gemini.New(log.Printf)
	default:
		fmt.Fprintf(os.Stderr, "agentstandin: -api %q: want chat or gemini\n", *api)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "agentstandin: %v\n", err)
		os.Exit(1)
	}
	log.Printf("agentstandin: %s API on http://%s", *api, ln.Addr())
	log.Fatal(http.Serve(ln, h))
}
