package autostart

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
)

// Label is the LaunchAgent's label, in reverse-DNS form after the module.
const Label = "com.github.capacitor-hud.hud"

// LaunchAgentPath is ~/Library/LaunchAgents/<Label>.plist.
func LaunchAgentPath(home string) string {
	return filepath.Join(home, "Library", "LaunchAgents", Label+".plist")
}

// RenderLaunchAgent returns the property list that has launchd start exe
// when the person logs in (RunAtLoad), in their GUI session (Aqua) where
// a menu-bar item can show, and not again when it quits: quitting the
// tray is a choice, not a crash. Its output goes to ~/Library/Logs/hud.log
// so a tray that never appears can be diagnosed.
func RenderLaunchAgent(exe, home string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
`)
	key := func(k string) { b.WriteString("\t<key>" + k + "</key>\n") }
	str := func(indent, s string) {
		b.WriteString(indent + "<string>")
		xml.EscapeText(&b, []byte(s)) // never fails on a bytes.Buffer
		b.WriteString("</string>\n")
	}
	key("Label")
	str("\t", Label)
	key("ProgramArguments")
	b.WriteString("\t<array>\n")
	str("\t\t", exe)
	b.WriteString("\t</array>\n")
	key("RunAtLoad")
	b.WriteString("\t<true/>\n")
	key("KeepAlive")
	b.WriteString("\t<false/>\n")
	key("LimitLoadToSessionType")
	str("\t", "Aqua")
	key("ProcessType")
	str("\t", "Interactive")
	log := filepath.Join(home, "Library", "Logs", "hud.log")
	key("StandardOutPath")
	str("\t", log)
	key("StandardErrorPath")
	str("\t", log)
	b.WriteString("</dict>\n</plist>\n")
	return b.Bytes()
}
