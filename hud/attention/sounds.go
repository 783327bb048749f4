package attention

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/hud/notify"
)

// The freedesktop sound-theme names of hud's two sounds: a session waits
// for the person (its reminder too), a long turn is done. Distinct so the
// ear tells them apart without looking.
const (
	SoundWaiting = "message-new-instant"
	SoundDone    = "complete"
)

// SoundFor is the sound of a notification of kind k when its sound is on
// in cfg; "" for none.
func SoundFor(k notify.Kind, cfg config.Notifications) string {
	switch k {
	case notify.KindWaiting, notify.KindStillWaiting:
		if cfg.WaitingSound {
			return SoundWaiting
		}
	case notify.KindDone:
		if cfg.DoneSound {
			return SoundDone
		}
	}
	return ""
}

// playTimeout bounds one sound: a player stuck on an audio server that
// does not answer must not hold up the next notification for long.
const playTimeout = 5 * time.Second

// Sounds plays the sound of each notification that is shown.
type Sounds struct {
	// Player plays a sound-theme name (Player's result); nil: none found.
	Player func(ctx context.Context, name string) error

	mu  sync.Mutex
	cfg config.Notifications
}

// NewSounds returns Sounds for the settings cfg, playing through player.
func NewSounds(cfg config.Notifications, player func(context.Context, string) error) *Sounds {
	return &Sounds{Player: player, cfg: cfg}
}

// Configure takes the reloaded settings.
func (s *Sounds) Configure(cfg config.Notifications) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg = cfg
}

// Play plays the sound of a notification of kind k, if it has one.
func (s *Sounds) Play(k notify.Kind) error {
	s.mu.Lock()
	name := SoundFor(k, s.cfg)
	s.mu.Unlock()
	if name == "" {
		return nil
	}
	if s.Player == nil {
		return errors.New("no sound player found (install canberra-gtk-play, or paplay / pw-play and the freedesktop sound theme)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), playTimeout)
	defer cancel()
	return s.Player(ctx, name)
}

// Player finds the desktop's way to play a sound-theme name: libcanberra's
// canberra-gtk-play (which follows the person's sound theme), else the
// freedesktop theme's file played by paplay or pw-play; on macOS, afplay
// with a system sound. It returns a description for hud doctor, and nil
// when there is none. lookPath is exec.LookPath; dataDirs are
// $XDG_DATA_DIRS' directories.
func Player(goos string, lookPath func(string) (string, error), dataDirs []string) (func(context.Context, string) error, string) {
	if goos == "darwin" {
		if p, err := lookPath("afplay"); err == nil {
			return func(ctx context.Context, name string) error {
				return run(ctx, p, "/System/Library/Sounds/"+macSounds[name]+".aiff")
			}, "afplay with the system sounds"
		}
		return nil, ""
	}
	if p, err := lookPath("canberra-gtk-play"); err == nil {
		return func(ctx context.Context, name string) error {
			return run(ctx, p, "--id="+name, "--description=hud")
		}, "canberra-gtk-play (your sound theme)"
	}
	for _, player := range []string{"paplay", "pw-play"} {
		p, err := lookPath(player)
		if err != nil {
			continue
		}
		return func(ctx context.Context, name string) error {
			file := themeFile(dataDirs, name)
			if file == "" {
				return fmt.Errorf("no file of the freedesktop sound %q (install sound-theme-freedesktop)", name)
			}
			return run(ctx, p, file)
		}, player + " with the freedesktop sound theme"
	}
	return nil, ""
}

// players are the programs Player looks for, in its order.
func players(goos string) []string {
	if goos == "darwin" {
		return []string{"afplay"}
	}
	return []string{"canberra-gtk-play", "paplay", "pw-play"}
}

// RelativeOnly names the first player lookPath finds only through a
// relative PATH entry (exec.ErrDot), "" for none: exec.LookPath refuses
// such a find, since a relative entry names whatever directory hud runs
// in, so Player finds no player there, and hud doctor says why.
func RelativeOnly(goos string, lookPath func(string) (string, error)) string {
	for _, p := range players(goos) {
		if _, err := lookPath(p); errors.Is(err, exec.ErrDot) {
			return p
		}
	}
	return ""
}

// macSounds stands in for the freedesktop names with macOS's own sounds.
var macSounds = map[string]string{SoundWaiting: "Glass", SoundDone: "Hero"}

// themeFile finds name in the freedesktop sound theme under dataDirs.
func themeFile(dataDirs []string, name string) string {
	for _, dir := range dataDirs {
		for _, ext := range []string{".oga", ".ogg", ".wav"} {
			f := filepath.Join(dir, "sounds", "freedesktop", "stereo", name+ext)
			if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
				return f
			}
		}
	}
	return ""
}

// DataDirs are $XDG_DATA_DIRS' directories, or the spec's default.
func DataDirs(getenv func(string) string) []string {
	v := getenv("XDG_DATA_DIRS")
	if v == "" {
		v = "/usr/local/share:/usr/share"
	}
	return strings.Split(v, ":")
}

func run(ctx context.Context, name string, args ...string) error {
	_, err := focus.Exec(ctx, focus.Command{Name: name, Args: args})
	return err
}
