package e2e

import (
	"strings"
	"sync"
	"time"
)

// soakEvery is how often the soak looks at hud and at Claude.
const soakEvery = 250 * time.Millisecond

// soakSampler looks, every soakEvery, at each Claude process the soak
// tracks: one `hud status --json` (the binary under test) for all of them,
// then each process's own session file and its screen. hud is read first,
// so a change between the two reads shows hud behind, never ahead.
type soakSampler struct {
	r    *rig
	stop chan struct{}
	done chan struct{}

	mu        sync.Mutex
	procs     map[string]*claudeProc // by the name the samples carry
	samples   []soakSample
	hudErrors []string
}

func newSoakSampler(r *rig) *soakSampler {
	return &soakSampler{r: r, stop: make(chan struct{}), done: make(chan struct{}), procs: map[string]*claudeProc{}}
}

// track starts sampling c under name; untrack stops.
func (s *soakSampler) track(name string, c *claudeProc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs[name] = c
}

func (s *soakSampler) untrack(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.procs, name)
}

func (s *soakSampler) start() { go s.run() }

// finish stops sampling and returns the samples and every failed `hud status`.
func (s *soakSampler) finish() ([]soakSample, []string) {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.samples, s.hudErrors
}

func (s *soakSampler) run() {
	defer close(s.done)
	tick := time.NewTicker(soakEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.take()
		}
	}
}

func (s *soakSampler) take() {
	s.mu.Lock()
	procs := make(map[string]*claudeProc, len(s.procs))
	for name, c := range s.procs {
		procs[name] = c
	}
	s.mu.Unlock()
	if len(procs) == 0 {
		return
	}
	asked := time.Now()
	st := s.r.status()
	at := time.Now()
	var taken []soakSample
	for name, c := range procs {
		smp := soakSample{at: at, proc: name, screen: soakScreen(c.pane.capture()), took: at.Sub(asked)}
		cs, err := c.claudeState()
		if err == nil {
			smp.claude, smp.session = cs.Status, cs.SessionID
			smp.claudeSince = time.UnixMilli(cs.StatusUpdatedAt)
		}
		if st.err == nil && err == nil {
			smp.hud = "absent"
			if hs, ok := st.session(cs.SessionID); ok {
				smp.hud = hs.State
			}
		}
		taken = append(taken, smp)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.samples = append(s.samples, taken...)
	if st.err != nil {
		s.hudErrors = append(s.hudErrors, at.Format("15:04:05.000 ")+st.err.Error())
	}
}

// soakScreen says what a pane shows, for the report's third column: a
// dialog (permission, question, plan, a startup question), Claude's
// spinner, background agents being waited for, or the prompt.
func soakScreen(screen string) string {
	switch {
	case dialog("Do you want to proceed?")(screen), dialog("Exit plan mode?")(screen),
		dialog("Leave it")(screen), startupQuestionShown(screen):
		return "dialog"
	case strings.Contains(screen, "esc to interrupt"):
		return "spinner"
	case strings.Contains(lastLines(screen, 10), "to finish"):
		// "Waiting for 1 background agent to finish", above the input box.
		return "agents"
	case inputBoxShown(screen):
		return "prompt"
	}
	return "other"
}

func startupQuestionShown(screen string) bool {
	_, ok := startupQuestion(screen)
	return ok
}
