//go:build !linux

package watch

// explain adds nothing on systems without inotify's per-user limits.
func explain(err error) error { return err }
