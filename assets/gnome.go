package assets

import (
	"embed"
	"io/fs"
)

// GNOMEExtensionUUID names hud's GNOME Shell extension: the directory it
// is installed in, and the name `gnome-extensions enable` takes.
const GNOMEExtensionUUID = "hud@capacitor-hud.github.io"

// The extension in two formats: GNOME Shell 45 made extensions ES
// modules and reads no other kind, and 43 and 44 read only the older one.
// An installed extension is one directory with one extension.js, so
// install picks the format of the shell it finds.
//
//go:embed gnome-shell/legacy/* gnome-shell/esm/*
var gnomeShell embed.FS

// GNOMEShellExtension returns the files of the extension (extension.js,
// metadata.json) for GNOME Shell 43 and 44 when legacy is set, else for
// GNOME Shell 45 and later.
func GNOMEShellExtension(legacy bool) fs.FS {
	dir := "gnome-shell/esm"
	if legacy {
		dir = "gnome-shell/legacy"
	}
	sub, err := fs.Sub(gnomeShell, dir)
	if err != nil {
		panic(err) // a literal directory of the embedded tree
	}
	return sub
}
