package focus

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"
)

// Idle returns how long the person has not touched the keyboard or the
// mouse, from the X server's screensaver extension (MIT-SCREEN-SAVER).
// display overrides $DISPLAY; without one the error wraps ErrSkip. Run it
// under a deadline: the X server may not answer.
func Idle(ctx context.Context, display string) (time.Duration, error) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	if display == "" {
		return 0, fmt.Errorf("%w: no X display", ErrSkip)
	}
	var idle time.Duration
	err := withDisplay(ctx, display, func(c *xgb.Conn) error {
		if err := screensaver.Init(c); err != nil {
			return fmt.Errorf("the X server has no screensaver extension: %w", err)
		}
		root := xproto.Setup(c).DefaultScreen(c).Root
		info, err := screensaver.QueryInfo(c, xproto.Drawable(root)).Reply()
		if err != nil {
			return fmt.Errorf("asking the X server for the idle time: %w", err)
		}
		idle = time.Duration(info.MsSinceUserInput) * time.Millisecond
		return nil
	})
	return idle, err
}
