package app

// openCommand opens a file or folder with the default application.
const openCommand = "open"
