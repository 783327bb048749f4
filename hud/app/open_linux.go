package app

// openCommand opens a file or folder with the desktop's default application.
const openCommand = "xdg-open"
