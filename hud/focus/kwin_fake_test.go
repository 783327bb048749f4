package focus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/internal/bustest"
)

// fakeKWin stands in for KWin's scripting on a bus of the test's own: it
// loads a script (its file checked), "runs" it by calling its answer
// back with what answer says for the processes the script looks for (nil
// for the focus script; false: no answer), and unloads it.
type fakeKWin struct {
	conn   *dbus.Conn // KWin's
	client KWin       // the caller, on a connection of its own
	kwin6  bool
	answer func(pids []int) (string, bool)
	// refuse makes loadScript fail as KWin does, with id -1.
	refuse bool
	// collide gives a loaded script no object of its own, as KWin 5 does
	// when it numbers it over another's still loaded.
	collide bool

	mu       sync.Mutex
	next     int32
	loaded   map[string]dbus.ObjectPath // plugin → its script object
	waiting  []string                   // files loaded without an object, not yet run
	files    []string
	tokens   []string
	problems []string
}

func startFakeKWin(t *testing.T, kwin6 bool, answer func(pids []int) (string, bool)) *fakeKWin {
	t.Helper()
	addr := bustest.Start(t)
	f := &fakeKWin{kwin6: kwin6, answer: answer, loaded: map[string]dbus.ObjectPath{}}
	var err error
	if f.conn, err = dbus.Connect(addr); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.conn.Close() })
	if reply, err := f.conn.RequestName(kwinService, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning %s: %v %v", kwinService, reply, err)
	}
	methods := map[string]string{"LoadScript": "loadScript", "UnloadScript": "unloadScript", "Start": "start"}
	if err := f.conn.ExportWithMap(f, methods, "/Scripting", kwinScripting); err != nil {
		t.Fatal(err)
	}
	client, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	f.client = KWin{Bus: func() (*dbus.Conn, error) { return client, nil }}
	return f
}

// LoadScript is org.kde.kwin.Scripting.loadScript.
func (f *fakeKWin) LoadScript(file, plugin string) (int32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files = append(f.files, file)
	if err := kwinScriptFile(file); err != nil {
		f.problems = append(f.problems, err.Error())
	}
	if f.refuse {
		return -1, nil
	}
	if _, ok := f.loaded[plugin]; ok {
		return -1, nil
	}
	id := f.next
	f.next++
	path := dbus.ObjectPath(fmt.Sprintf("/%d", id))
	if f.kwin6 {
		path = dbus.ObjectPath(fmt.Sprintf("/Scripting/Script%d", id))
	}
	f.loaded[plugin] = path
	f.waiting = append(f.waiting, file)
	if f.collide {
		return id, nil
	}
	if err := f.conn.ExportWithMap(fakeKWinScript{f, file}, map[string]string{"Run": "run"}, path, kwinScript); err != nil {
		return 0, dbus.MakeFailedError(err)
	}
	return id, nil
}

// Start is org.kde.kwin.Scripting.start: it runs every loaded script not
// yet running.
func (f *fakeKWin) Start() *dbus.Error {
	f.mu.Lock()
	waiting := f.waiting
	f.waiting = nil
	f.mu.Unlock()
	for _, file := range waiting {
		if err := (fakeKWinScript{f, file}).Run(); err != nil {
			return err
		}
	}
	return nil
}

// UnloadScript is org.kde.kwin.Scripting.unloadScript.
func (f *fakeKWin) UnloadScript(plugin string) (bool, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path, ok := f.loaded[plugin]
	if ok {
		f.conn.Export(nil, path, kwinScript)
		delete(f.loaded, plugin)
	}
	return ok, nil
}

// fakeKWinScript is a loaded script's object.
type fakeKWinScript struct {
	f    *fakeKWin
	file string
}

var (
	kwinFakeCall = regexp.MustCompile(`callDBus\((.*), answer\);`)
	kwinFakePids = regexp.MustCompile(`var pids = (\[[0-9,]*\]);`)
)

// Run is org.kde.kwin.Script.run: like KWin, it returns before the script
// has run.
func (s fakeKWinScript) Run() *dbus.Error {
	text, err := os.ReadFile(s.file)
	if err != nil {
		return dbus.MakeFailedError(err)
	}
	var to []string
	call := kwinFakeCall.FindSubmatch(text)
	if call == nil || json.Unmarshal([]byte("["+string(call[1])+"]"), &to) != nil || len(to) != 5 {
		return dbus.MakeFailedError(fmt.Errorf("no callDBus in the script:\n%s", text))
	}
	var pids []int
	if m := kwinFakePids.FindSubmatch(text); m != nil {
		json.Unmarshal(m[1], &pids)
	}
	go func() {
		answer, ok := s.f.answer(pids)
		if !ok {
			return
		}
		s.f.mu.Lock()
		s.f.tokens = append(s.f.tokens, to[4])
		s.f.mu.Unlock()
		s.f.conn.Object(to[0], dbus.ObjectPath(to[1])).Call(to[2]+"."+to[3], 0, to[4], answer)
	}()
	return nil
}

// checkCleanedUp checks that every script was unloaded, its file and
// directory removed, and no call waits for its answer any more: one
// that comes now is ignored.
func (f *fakeKWin) checkCleanedUp(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.problems) > 0 {
		t.Errorf("scripts handed over: %s", strings.Join(f.problems, "; "))
	}
	if len(f.loaded) > 0 {
		t.Errorf("scripts left loaded: %v", f.loaded)
	}
	for _, file := range f.files {
		if _, err := os.Stat(filepath.Dir(file)); !os.IsNotExist(err) {
			t.Errorf("script directory %s left behind: %v", filepath.Dir(file), err)
		}
	}
	client, _ := f.client.bus()
	for _, token := range f.tokens {
		kwinRouter.mu.Lock()
		_, waiting := kwinRouter.waiting[token]
		kwinRouter.mu.Unlock()
		if waiting {
			t.Errorf("a call still waits for token %s", token)
		}
		err := f.conn.Object(client.Names()[0], kwinAnswerPath).Call(kwinAnswerInterface+"."+kwinAnswerMethod, 0, token, "1").Err
		if err != nil {
			t.Errorf("a late answer: %v", err)
		}
	}
	f.files, f.tokens = nil, nil
}
