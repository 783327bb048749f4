// Command standin serves the e2e suite's stand-in Anthropic Messages API on
// a loopback address, to run the real Claude Code CLI against by hand:
//
//	go run ./scripts/e2e/cmd/standin -addr 127.0.0.1:8787
//	ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=sk-ant-standin-0123456789abcdef claude
//
// Then type "TOOL:touch x", "SLOW:20" or anything else (see package standin).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/capacitor-hud/hud/scripts/e2e/standin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8787", "loopback `address` to listen on")
	compactDelay := flag.Duration("compact-delay", 2*time.Second, "how long a compaction summary is held back")
	dump := flag.String("dump", "", "`directory` to save every request body in")
	flag.Parse()

	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(os.Stderr, "standin: -addr %q: must be a loopback address such as 127.0.0.1:8787\n", *addr)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "standin: %v\n", err)
		os.Exit(1)
	}
	srv := standin.New(log.Printf)
	srv.CompactDelay = *compactDelay
	srv.DumpDir = *dump
	log.Printf("standin: listening on http://%s", ln.Addr())
	log.Fatal(http.Serve(ln, srv))
}
