package app

// Headless shows nothing: the loop runs without an icon (`hud serve`, where
// the page is the view), until it returns.
func Headless(loop func(ui UI)) error {
	loop(headlessUI{events: make(chan Event)})
	return nil
}

type headlessUI struct{ events chan Event }

func (headlessUI) SetIcon(png, template []byte) {}
func (headlessUI) SetTitle(string)              {}
func (headlessUI) SetTooltip(string)            {}
func (headlessUI) SetMenu(Menu)                 {}
func (u headlessUI) Events() <-chan Event       { return u.events }
func (headlessUI) Quit()                        {}
