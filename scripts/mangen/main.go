// Command mangen writes the manual pages hud.1 and hud-hook.1 into a
// directory, for the packages (make dist). The date is SOURCE_DATE_EPOCH's,
// so the same commit gives the same pages.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/capacitor-hud/hud/hud/cli"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mangen <dir> <version>")
		os.Exit(2)
	}
	dir, version := os.Args[1], os.Args[2]
	date := time.Now()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mangen: SOURCE_DATE_EPOCH: %v\n", err)
			os.Exit(2)
		}
		date = time.Unix(sec, 0)
	}
	for name, page := range map[string]func(io.Writer, string, time.Time) error{
		"hud.1":      cli.ManPage,
		"hud-hook.1": cli.HookManPage,
	} {
		if err := write(filepath.Join(dir, name), func(w io.Writer) error { return page(w, version, date) }); err != nil {
			fmt.Fprintf(os.Stderr, "mangen: %v\n", err)
			os.Exit(1)
		}
	}
}

func write(path string, page func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := page(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
