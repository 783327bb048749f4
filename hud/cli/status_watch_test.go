package cli

import (
	"bytes"
	"os"
	"testing"
	"time"
)

func TestReaderGone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	gone := readerGone(w)
	select {
	case <-gone:
		t.Fatal("gone while the reader is there")
	case <-time.After(50 * time.Millisecond):
	}
	r.Close()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("not gone 5s after the reader closed")
	}
	if readerGone(&bytes.Buffer{}) != nil {
		t.Error("a buffer has no reader to lose")
	}
}
