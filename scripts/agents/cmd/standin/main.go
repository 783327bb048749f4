// Command standin serves the agents' stand-in model APIs on a loopback
// port, for the agents' end-to-end suite and for a person probing an
// agent by hand: it prints the URL and serves until killed.
//
//	go run ./scripts/agents/cmd/standin [-addr 127.0.0.1:0] [-v]
//
// Each API under its own prefix: the Responses API under /responses
// (Codex), Chat Completions under /chat
// (COPILOT_PROVIDER_BASE_URL=<url>/chat/v1 COPILOT_OFFLINE=true copilot),
// the Gemini API under /gemini (GOOGLE_GEMINI_BASE_URL=<url>/gemini
// GEMINI_API_KEY=x gemini).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/capacitor-hud/hud/scripts/agents/standin/chat"
	"github.com/capacitor-hud/hud/scripts/agents/standin/gemini"
	"github.com/capacitor-hud/hud/scripts/agents/standin/responses"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	verbose := flag.Bool("v", false, "log every request on stderr")
	flag.Parse()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("standin: %v", err)
	}
	srv := &responses.Server{Slow: 30 * time.Second}
	logf := func(string, ...any) {}
	if *verbose {
		logf = log.New(os.Stderr, "standin: ", log.Lmicroseconds).Printf
		srv.Logf = logf
	}
	mux := http.NewServeMux()
	mux.Handle("/responses/", http.StripPrefix("/responses", srv))
	mux.Handle("/chat/", http.StripPrefix("/chat", chat.New(logf)))
	mux.Handle("/gemini/", http.StripPrefix("/gemini", gemini.New(logf)))
	fmt.Printf("http://%s\n", l.Addr())
	log.Fatal(http.Serve(l, mux))
}
