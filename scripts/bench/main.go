// Command bench measures the figures of docs/performance.md (`make bench`).
// Each figure lives in its own file and is one line in the figures table;
// it prints a table of p50/p95 timings next to a baseline measured in the
// same run, and their ratio. Benchmarks are never timed tests: machines
// differ, so only a ratio against a baseline taken at the same moment
// means anything.
//
//	go run ./scripts/bench [-n 200] [-only hook] [-compare old/hud-hook]...
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// figure is one measurement, printed as one table.
type figure struct {
	name string
	run  func(b *bench) error
}

// figures lists every figure in the order they are printed.
var figures = []figure{
	{"hook", benchHook},
	{"tray", benchTray},
	{"lock", benchLock},
	{"worksession", benchWorkSession},
	{"history", benchHistory},
	{"web", benchWeb},
}

// bench is what every figure shares: the iteration count, a scratch
// directory removed at the end, and binaries built once.
type bench struct {
	n     int
	dir   string
	built map[string]string
	// compared are other builds of hud-hook (an older commit's, a
	// variant's) that the hook figure times side by side with this one,
	// in the same rounds.
	compared []comparedBuild
	// cleanup removes what figures made outside dir.
	cleanup []func()
}

// comparedBuild is a build given with -compare: name is the path given
// (the tables name it so), bin its installed copy, which is what runs (see
// goBuild).
type comparedBuild struct{ name, bin string }

func main() {
	n := flag.Int("n", 200, "timed runs per row")
	only := flag.String("only", "", "run only the figure with this name")
	var compare []string
	flag.Func("compare", "`hud-hook` binary (another commit's release build) to time beside this one; may be repeated", func(path string) error {
		compare = append(compare, path)
		return nil
	})
	flag.Parse()
	dir, err := os.MkdirTemp("", "hud-bench-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(dir)
	b := &bench{n: *n, dir: dir, built: map[string]string{}}
	defer b.clean()
	for i, path := range compare {
		bin := filepath.Join(dir, "bin", fmt.Sprintf("compared-%d", i), "hud-hook")
		if err := install(path, bin); err != nil {
			os.RemoveAll(dir)
			fatal(fmt.Errorf("-compare: %w", err))
		}
		b.compared = append(b.compared, comparedBuild{name: path, bin: bin})
	}
	fmt.Printf("machine: %s\n\n", machine())
	failed := false
	for _, f := range figures {
		if *only != "" && f.name != *only {
			continue
		}
		if err := f.run(b); err != nil {
			fmt.Fprintf(os.Stderr, "bench %s: %v\n", f.name, err)
			failed = true
		}
	}
	if failed {
		b.clean()
		os.RemoveAll(dir)
		os.Exit(1)
	}
}

func (b *bench) clean() {
	for _, f := range b.cleanup {
		f()
	}
	b.cleanup = nil
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "bench: %v\n", err)
	os.Exit(1)
}

// buildFlags are the flags every measured binary is built with, the
// release build's: no cgo, no symbol tables.
var buildFlags = []string{"build", "-trimpath", "-ldflags", "-s -w"}

// build compiles the package pkg (an import path or ./dir of this module)
// once and returns the binary's path.
func (b *bench) build(pkg string) (string, error) {
	if path, ok := b.built[pkg]; ok {
		return path, nil
	}
	// Each binary keeps its package's name in a directory of its own: the
	// stand-in Claude must be called "claude", since the hook ties a lock
	// only to a process it can tell is Claude Code.
	out := filepath.Join(b.dir, "bin", strings.NewReplacer("/", "_", ".", "_").Replace(pkg), filepath.Base(pkg))
	if err := goBuild(pkg, "", out, "CGO_ENABLED=0"); err != nil {
		return "", err
	}
	b.built[pkg] = out
	return out, nil
}

// goBuild builds pkg (in dir, "" for this module) with buildFlags and
// installs the binary at out the way `make install` does, by copying it.
// A binary the linker has just written is mapped with more page faults
// than the same bytes written by a copy (the linker fills its output
// through mmap, page by page), and it runs slower for it (the figures
// are in docs/performance.md). A person runs
// an installed copy, or one read back from disk, never the linker's
// pages; so does the bench, for every binary it times.
func goBuild(pkg, dir, out string, env ...string) error {
	linked := out + ".linked"
	cmd := exec.Command("go", append(append(slices.Clone(buildFlags), "-o", linked), pkg)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", pkg, err, msg)
	}
	defer os.Remove(linked)
	return install(linked, out)
}

// install copies the executable from to the new file to, as install(1)
// does.
func install(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return fmt.Errorf("installing %s: %w", to, err)
	}
	return dst.Close()
}

// emptyProgram builds `func main() {}` the same way as the measured
// binaries: the floor any Go binary pays to start (the baseline).
func (b *bench) emptyProgram() (string, error) {
	return b.program("empty", "package main\n\nfunc main() {}\n")
}

// program builds a one-file Go program, main.go's text, as a module of
// its own and the way the measured binaries are built, once per name.
func (b *bench) program(name, mainGo string) (string, error) {
	if path, ok := b.built[name]; ok {
		return path, nil
	}
	src := filepath.Join(b.dir, name)
	if err := os.MkdirAll(src, 0o700); err != nil {
		return "", err
	}
	files := map[string]string{
		"go.mod":  "module " + name + "\n\ngo 1.22\n",
		"main.go": mainGo,
	}
	for file, text := range files {
		if err := os.WriteFile(filepath.Join(src, file), []byte(text), 0o600); err != nil {
			return "", err
		}
	}
	out := filepath.Join(b.dir, "bin", name)
	if err := goBuild(".", src, out, "CGO_ENABLED=0", "GOWORK=off"); err != nil {
		return "", fmt.Errorf("the %s program: %w", name, err)
	}
	b.built[name] = out
	return out, nil
}

// run is one timed process: fork+exec of path with input on stdin, as
// Claude Code runs a hook with `args`. It fails on a non-zero exit or any
// output on stdout.
func run(path string, env []string, input []byte) (time.Duration, error) {
	return runCmd(exec.Command(path), env, input)
}

// runCmd times cmd. The input is in a pipe before the process starts (as
// Claude writes the event at once), and stdout and stderr are files, so
// that no goroutine of this process copies data while the clock runs: its
// scheduling would be timed along with the program.
func runCmd(cmd *exec.Cmd, env []string, input []byte) (time.Duration, error) {
	name := filepath.Base(cmd.Args[len(cmd.Args)-1])
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	if len(input) > 0 {
		// Pipes hold 64 KiB; the recorded events are a few KiB.
		if _, err := w.Write(input); err != nil {
			w.Close()
			return 0, err
		}
	}
	w.Close()
	out, err := os.CreateTemp("", "hud-bench-out-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	cmd.Env = env
	cmd.Stdin = r
	cmd.Stdout = out
	cmd.Stderr = out
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	got, _ := os.ReadFile(out.Name())
	if err != nil {
		return 0, fmt.Errorf("%s: %v: %s", name, err, got)
	}
	if len(got) > 0 {
		return 0, fmt.Errorf("%s printed: %q", name, got)
	}
	return elapsed, nil
}

// percentile returns the p-th percentile (0..100) of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted) - 1) * p / 100
	return sorted[i]
}

// summary is the p50/p95 of a set of timings.
type summary struct{ p50, p95 time.Duration }

func summarize(d []time.Duration) summary {
	s := slices.Clone(d)
	slices.Sort(s)
	return summary{percentile(s, 50), percentile(s, 95)}
}

// row prints one table row: a figure and its baseline, p50 and p95, and
// the ratio of the p50s.
func row(name string, fig, base summary) {
	fmt.Printf("| %-24s | %9s | %9s | %9s | %9s | %8.2f× |\n", name, ms(fig.p50), ms(fig.p95), ms(base.p50), ms(base.p95),
		float64(fig.p50)/float64(base.p50))
}

// ms formats a duration in milliseconds with two decimals.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// machine describes where the figures were taken.
func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimLeft(name, " \t:"))
				break
			}
		}
	}
	kernel := "unknown kernel"
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		kernel = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
	}
	return fmt.Sprintf("%s/%s, %d CPUs (%s), %s, %s, load average %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, kernel, goVersion(), loadAverage())
}

// loadAverage is the 1, 5 and 15 minute load averages: how busy the
// machine was, the figures' noise.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// goVersion is the toolchain that builds the measured binaries.
func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}
