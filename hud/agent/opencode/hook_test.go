package opencode

import "testing"

func TestDecodeRefuses(t *testing.T) {
	for _, c := range []struct{ event, payload string }{
		{"", `{"sessionID":"ses_1"}`},
		{"session.idle", `{"sessionID":"../x"}`},
		{"session.idle", `not json`},
	} {
		if _, err := decode(c.event, []byte(c.payload)); err == nil {
			t.Errorf("%s %s decoded", c.event, c.payload)
		}
	}
	if ev, err := decode("message.part.delta", []byte(`{"sessionID":"ses_1"}`)); ev != nil || err != nil {
		t.Errorf("an event hud does not follow: %v %v", ev, err)
	}
}
