package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// SyntaxError is a settings file that is not strict JSON.
type SyntaxError struct {
	Path      string
	Line, Col int
	Msg       string
	Hint      string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// checkSyntax validates data as one JSON value and turns encoding/json's
// byte offset into a line and column with a hint for the two mistakes
// people make in settings files: comments and trailing commas.
func checkSyntax(data []byte) error {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return &SyntaxError{Line: 1, Col: 1, Msg: "the file starts with a byte order mark (BOM)",
			Hint: "save it as UTF-8 without a BOM (JSON parsers, JavaScript's among them, reject one)"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	err := dec.Decode(&v)
	if err == nil {
		// One value and nothing but whitespace after it.
		if _, terr := dec.Token(); terr != io.EOF {
			off := int(dec.InputOffset())
			line, col := lineCol(data, off)
			return &SyntaxError{Line: line, Col: col, Msg: "unexpected text after the top-level value",
				Hint: "a settings file holds exactly one JSON object"}
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		line, col := lineCol(data, len(data))
		return &SyntaxError{Line: line, Col: col, Msg: "unexpected end of file",
			Hint: "the file is cut short: a closing } or ] or \" is missing"}
	}
	if !errors.As(err, &se) {
		return &SyntaxError{Line: 1, Col: 1, Msg: err.Error()}
	}
	off := int(se.Offset) - 1 // Offset is just past the bad byte
	if off < 0 {
		off = 0
	}
	line, col := lineCol(data, off)
	e := &SyntaxError{Line: line, Col: col, Msg: se.Error(),
		Hint: "Claude Code reads strict JSON; fix the file (or check it with 'python3 -m json.tool FILE') and run this again"}
	switch {
	case off < len(data) && data[off] == '/':
		e.Msg = "comments are not allowed in JSON"
		e.Hint = "remove the // or /* */ comment; Claude Code reads settings.json as strict JSON"
	case off < len(data) && (data[off] == '}' || data[off] == ']') && prevNonSpace(data, off) == ',':
		e.Msg = "trailing comma before " + string(data[off])
		e.Hint = "remove the comma after the last item; Claude Code reads settings.json as strict JSON"
	}
	return e
}

func prevNonSpace(data []byte, off int) byte {
	for i := off - 1; i >= 0; i-- {
		if c := data[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}

// lineCol converts a byte offset into a 1-based line and column (columns
// count bytes, as editors' "go to" commands accept).
func lineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = off - bytes.LastIndexByte(before, '\n')
	return line, col
}
