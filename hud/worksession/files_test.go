package worksession

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

func TestFilesLifecycle(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	files := Files{Layout: paths.Layout{Home: home}}
	if _, err := Load(project); !errors.Is(err, ErrNoSession) {
		t.Fatalf("Load without a session: %v", err)
	}
	if err := files.Update(project, func(*State) error { return nil }); !errors.Is(err, ErrNoSession) {
		t.Fatalf("Update without a session: %v", err)
	}
	s, _ := New("task", "scope", t0)
	if err := files.Create(project, s); err != nil {
		t.Fatal(err)
	}
	if err := files.Create(project, s); !errors.Is(err, ErrSessionExists) {
		t.Errorf("second Create: %v", err)
	}
	// A file that does not parse is reported and left alone.
	os.WriteFile(Path(project), []byte(`{"sessionId": 7}`), 0o644)
	if err := files.Update(project, func(*State) error { return nil }); err == nil || errors.Is(err, ErrNoSession) {
		t.Errorf("Update of a corrupt file: %v", err)
	}
	if data, _ := os.ReadFile(Path(project)); string(data) != `{"sessionId": 7}` {
		t.Errorf("corrupt file changed to %s", data)
	}
	// Stop removes it anyway.
	if got, err := files.Remove(project); err != nil || got != nil {
		t.Errorf("Remove corrupt: %v, %v", got, err)
	}
	if _, err := os.Stat(Path(project)); !os.IsNotExist(err) {
		t.Errorf("file still there: %v", err)
	}
	if _, err := files.Remove(project); !errors.Is(err, ErrNoSession) {
		t.Errorf("second Remove: %v", err)
	}
}

func TestConcurrentWritersAndReaders(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	s, _ := New("task", "scope", t0)
	s.Summary = ""
	if err := (Files{Layout: paths.Layout{Home: home}}).Create(project, s); err != nil {
		t.Fatal(err)
	}
	const writers, each = 2, 50
	stop := make(chan struct{})
	readerDone := make(chan int)
	go func() { // a reader that must never see a partial file
		reads := 0
		for {
			select {
			case <-stop:
				readerDone <- reads
				return
			default:
			}
			if _, err := Load(project); err != nil {
				t.Errorf("read %d: %v", reads, err)
			}
			reads++
		}
	}()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each writer its own Files value: the lock file is opened per
			// call, so goroutines exclude each other as processes do.
			files := Files{Layout: paths.Layout{Home: home}}
			for i := range each {
				err := files.Update(project, func(s *State) error {
					s.Summary += string(rune('a' + w))
					Observe(s, t0.Add(time.Duration(w*each+i)*time.Second), Activity{}, DefaultSettings())
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	t.Logf("%d whole reads", <-readerDone)
	got, err := Load(project)
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		if n := strings.Count(got.Summary, string(rune('a'+w))); n != each {
			t.Errorf("writer %d: %d of %d updates kept", w, n, each)
		}
	}
}
