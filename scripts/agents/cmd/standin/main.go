// Command standin serves the agents' stand-in model APIs on a loopback
// port, for the agents' end-to-end suite and for a person probing an
// agent by hand: it prints the URL and serves until killed.
//
//	go run ./scripts/agents/cmd/standin [-addr 127.0.0.1:0] [-v]
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

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
	if *verbose {
		srv.Logf = log.New(os.Stderr, "standin: ", log.Lmicroseconds).Printf
	}
	mux := http.NewServeMux()
	mux.Handle("/responses/", http.StripPrefix("/responses", srv))
	fmt.Printf("http://%s\n", l.Addr())
	log.Fatal(http.Serve(l, mux))
}
