package attention

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// FirstIdle asks each source of the idle time in turn and returns the
// first answer: the X server where there is a display, the session bus
// where there is none. The error, when none answers, names them all.
func FirstIdle(sources ...func(context.Context) (time.Duration, error)) func(context.Context) (time.Duration, error) {
	return func(ctx context.Context) (time.Duration, error) {
		var errs []string
		for _, src := range sources {
			d, err := src(ctx)
			if err == nil {
				return d, nil
			}
			if ctx.Err() != nil {
				return 0, fmt.Errorf("reading the idle time: %w", ctx.Err())
			}
			errs = append(errs, err.Error())
		}
		if len(errs) == 0 {
			return 0, errors.New("no source of the idle time")
		}
		return 0, errors.New(strings.Join(errs, "; "))
	}
}
