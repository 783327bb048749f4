package proc

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeOnExecListed sets close-on-exec on every open descriptor from 3 up,
// as listed in fdDir.
func closeOnExecListed() {
	names, err := readDirNames(fdDir)
	if err != nil {
		return // nothing better to do: the helper starts regardless
	}
	for _, name := range names {
		if fd, err := strconv.Atoi(name); err == nil && fd >= 3 {
			unix.CloseOnExec(fd)
		}
	}
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
