package watch

import (
	"errors"
	"fmt"
	"syscall"
)

// explain adds what to do to the errors inotify gives when a per-user
// limit is reached: EMFILE from inotify_init (fs.inotify.max_user_instances,
// often 128, used up by editors and file managers) and ENOSPC from
// inotify_add_watch (fs.inotify.max_user_watches).
func explain(err error) error {
	switch {
	case errors.Is(err, syscall.EMFILE):
		return fmt.Errorf("%w (the per-user inotify limit is reached: raise it with `sysctl fs.inotify.max_user_instances=512`)", err)
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("%w (the per-user inotify watch limit is reached: raise it with `sysctl fs.inotify.max_user_watches=524288`)", err)
	}
	return err
}
