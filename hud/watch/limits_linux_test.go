package watch

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

func TestExplainInotifyLimits(t *testing.T) {
	for errno, want := range map[syscall.Errno]string{
		syscall.EMFILE: "max_user_instances",
		syscall.ENOSPC: "max_user_watches",
	} {
		err := explain(errno)
		if !errors.Is(err, errno) || !strings.Contains(err.Error(), want) {
			t.Errorf("explain(%v) = %v, want it to mention %s", errno, err, want)
		}
	}
}
