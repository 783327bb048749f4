package sum256

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// Known answers from FIPS 180-4's examples (and the empty input).
func TestKnownAnswers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		got := Sum([]byte(tc.in))
		if hex.EncodeToString(got[:]) != tc.want {
			t.Errorf("Sum(%q) = %x, want %s", tc.in, got, tc.want)
		}
	}
}

// Every length through three blocks crosses each padding case: the
// length fitting in the last block, spilling into one more, an input
// ending exactly on a block.
func TestEveryLengthMatchesCryptoSHA256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 3*blockSize+1; n++ {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		if got, want := Sum(data), sha256.Sum256(data); got != want {
			t.Fatalf("length %d: Sum = %x, crypto/sha256 = %x", n, got, want)
		}
	}
	long := make([]byte, 1<<16+13)
	for i := range long {
		long[i] = byte(r.Uint32())
	}
	if got, want := Sum(long), sha256.Sum256(long); got != want {
		t.Fatalf("%d bytes: Sum = %x, crypto/sha256 = %x", len(long), got, want)
	}
}

func FuzzSum(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("/home/person/code/project"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum(data), sha256.Sum256(data); got != want {
			t.Fatalf("Sum(%q) = %x, crypto/sha256 = %x", data, got, want)
		}
	})
}
