package answer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// SocketName is the tray's socket in hud's directory (~/.capacitor). It
// exists while a tray runs with answering on.
const SocketName = "answer.sock"

// SocketPath is the socket's path for a home directory.
func SocketPath(home string) string {
	return filepath.Join(paths.Layout{Home: home}.StoreDir(), SocketName)
}

// maxMessage bounds one message either way: a request carries a short
// subject and a few choices, never the tool's whole input. A list of the
// requests waiting, the one message that grows with their number, has a
// bound of its own: as many requests of the most a hook may send as
// sessions a person could have waiting.
const (
	maxMessage = 64 << 10
	maxList    = 64 * maxMessage
)

// message is one line of the protocol, either way. A connection carries
// one exchange:
//
//	hook → tray   {"offer": Request}         tray → hook  {"answer": {id, choice}} or EOF
//	hud  → tray   {"list": true}             tray → hud   {"requests": [...]}
//	hud  → tray   {"answer": {id, choice}}   tray → hud   {"ok": true} or {"error": "..."}
type message struct {
	Offer    *Request  `json:"offer,omitempty"`
	List     bool      `json:"list,omitempty"`
	Answer   *Reply    `json:"answer,omitempty"`
	Requests []Request `json:"requests,omitempty"`
	OK       bool      `json:"ok,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Answered is the request an answer went to.
	Answered *Request `json:"answered,omitempty"`
}

// Reply is an answer to one request: its ID and digest, and the key of
// the choice.
type Reply struct {
	ID     string `json:"id"`
	Digest string `json:"digest,omitempty"`
	// Session, when set, must be the request's session.
	Session string `json:"session,omitempty"`
	Choice  string `json:"choice"`
}

// conn is one connection with its reader.
type conn struct {
	c *net.UnixConn
	r *bufio.Reader
}

func newConn(c *net.UnixConn) *conn { return &conn{c: c, r: bufio.NewReaderSize(c, 4096)} }

func (c *conn) send(m message) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = c.c.Write(append(data, '\n'))
	return err
}

// receive reads one message, at most limit bytes long.
func (c *conn) receive(limit int) (message, error) {
	var line []byte
	for {
		part, isPrefix, err := c.r.ReadLine()
		if err != nil {
			return message{}, err
		}
		line = append(line, part...)
		if len(line) > limit {
			return message{}, fmt.Errorf("a message longer than %d KiB", limit>>10)
		}
		if !isPrefix {
			break
		}
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return message{}, fmt.Errorf("decoding a message: %w", err)
	}
	return m, nil
}

// checkPeer refuses a peer of any uid but want: the socket's modes keep
// others out already, and this holds whatever the modes.
func checkPeer(uid, want int) error {
	if uid != want {
		return fmt.Errorf("refused a peer of uid %d (this is uid %d)", uid, want)
	}
	return nil
}

// dial connects to the tray's socket under home and checks that the tray
// runs as this uid.
func dial(home string, timeout time.Duration) (*conn, error) {
	c, uid, err := dialUnix(SocketPath(home), timeout)
	if err != nil {
		return nil, err
	}
	if err := checkPeer(uid, ourUID()); err != nil {
		c.Close()
		return nil, err
	}
	return newConn(c), nil
}

var ourUID = os.Getuid
