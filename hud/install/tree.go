package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// kind is the shape of a JSON value.
type kind int

const (
	kindScalar kind = iota // string, number, true, false, null
	kindObject
	kindArray
)

// node is one JSON value that remembers where it came from. A node read
// from the file keeps its original bytes in raw; a node that was never
// modified (nor anything below it) is written back as raw, so its spacing,
// escapes and number spelling survive. Nodes built by this package have no
// raw and are always rendered. Neither json.Indent, which re-spaces every
// value, nor an in-place editor such as sjson, which adds a member on one
// line after the last, keeps a person's layout; this tree does.
type node struct {
	kind    kind
	members []member // kindObject, in file order
	elems   []*node  // kindArray
	raw     []byte   // original text; nil for new nodes
	dirty   bool     // this node's own members/elems were edited
}

// member is one key of an object. rawKey is the key exactly as written
// (quotes and escapes included).
type member struct {
	key    string
	rawKey []byte
	value  *node
}

// changed reports whether n must be rendered rather than copied.
func (n *node) changed() bool {
	if n.dirty || n.raw == nil {
		return true
	}
	for _, m := range n.members {
		if m.value.changed() {
			return true
		}
	}
	for _, e := range n.elems {
		if e.changed() {
			return true
		}
	}
	return false
}

// get returns the value of the member named key, or nil. With duplicate
// keys it is the last one, the one JavaScript's JSON.parse (and so Claude
// Code) keeps.
func (n *node) get(key string) *node {
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i].value
		}
	}
	return nil
}

// set appends key: v at the end of the object (where a person would look
// for something added last) or replaces the member get would return.
func (n *node) set(key string, v *node) {
	n.dirty = true
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			n.members[i].value = v
			return
		}
	}
	n.members = append(n.members, field(key, v))
}

// remove deletes every member named key.
func (n *node) remove(key string) {
	n.keepMembers(func(m member) bool { return m.key != key })
}

// keepMembers leaves in the object n only the members ok accepts, in
// order.
func (n *node) keepMembers(ok func(member) bool) {
	kept := n.members[:0:0]
	for _, m := range n.members {
		if ok(m) {
			kept = append(kept, m)
		}
	}
	if len(kept) != len(n.members) {
		n.members, n.dirty = kept, true
	}
}

// push appends v at the end of the array n.
func (n *node) push(v *node) {
	n.elems = append(n.elems, v)
	n.dirty = true
}

// keep leaves in the array n only the elements ok accepts, in order, and
// reports whether any went.
func (n *node) keep(ok func(*node) bool) bool {
	kept := n.elems[:0:0]
	for _, e := range n.elems {
		if ok(e) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(n.elems) {
		return false
	}
	n.elems, n.dirty = kept, true
	return true
}

// str returns the value of a string scalar and whether n is one.
func (n *node) str() (string, bool) {
	if n == nil || n.kind != kindScalar || len(n.raw) == 0 || n.raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil {
		return "", false
	}
	return s, true
}

// value decodes n into plain Go values (map, slice, float64, ...), for
// comparisons that must ignore formatting.
func (n *node) value() any {
	var b bytes.Buffer
	n.render(&b, style{}, 0)
	var v any
	if json.Unmarshal(b.Bytes(), &v) == nil {
		return v
	}
	// A number no float64 holds (1.0e+400 is valid JSON) compares by its
	// text.
	dec := json.NewDecoder(&b)
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		panic(fmt.Sprintf("install: rendered invalid JSON: %v", err)) // a bug in render
	}
	return v
}

func quote(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// newObject, newArray and newScalar build nodes for values this package adds.
func newObject(members ...member) *node { return &node{kind: kindObject, members: members} }
func newArray(elems ...*node) *node     { return &node{kind: kindArray, elems: elems} }
func newScalar(v any) *node {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("install: scalar %#v: %v", v, err))
	}
	return &node{kind: kindScalar, raw: b}
}
func field(key string, v *node) member { return member{key: key, rawKey: quote(key), value: v} }

// document is a parsed settings file: the top-level value and the bytes
// around it, with the style to render edits in.
type document struct {
	lead, trail []byte // whitespace before and after the top-level value
	root        *node
	style       style
}

// style is how a file is indented.
type style struct {
	indent string // one level; "" renders compactly on one line
	space  bool   // a space after ':'
	crlf   bool   // lines end in \r\n (a file saved on Windows)
}

// defaultStyle is what Claude Code itself writes (JSON.stringify(v, null, 2)).
var defaultStyle = style{indent: "  ", space: true}

// parseDocument reads a strict JSON document into a tree. Errors are
// *SyntaxError with a line and column.
func parseDocument(data []byte) (*document, error) {
	if err := checkSyntax(data); err != nil {
		return nil, err
	}
	start, end, err := nextValue(json.NewDecoder(bytes.NewReader(data)), 0)
	if err != nil {
		return nil, err // checkSyntax let through what the decoder refuses: a bug
	}
	root, err := parseValue(data, start, end)
	if err != nil {
		return nil, err
	}
	return &document{lead: data[:start], trail: data[end:], root: root, style: detectStyle(root)}, nil
}

// bytes renders the document.
func (d *document) bytes() []byte {
	var b bytes.Buffer
	b.Write(d.lead)
	d.root.render(&b, d.style, 0)
	b.Write(d.trail)
	return b.Bytes()
}

// nextValue reads the value dec stands before as a json.RawMessage, which
// holds it exactly as written, and says where it lies: dec reads the bytes
// from offset base of the file on.
func nextValue(dec *json.Decoder, base int) (start, end int, err error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, 0, err
	}
	end = base + int(dec.InputOffset())
	return end - len(raw), end, nil
}

// parseValue builds the node of the value data[start:end]. Each member and
// element keeps its own slice of data as its raw text, so whatever is not
// edited is written back as it was.
func parseValue(data []byte, start, end int) (*node, error) {
	raw := data[start:end]
	n := &node{kind: kindScalar, raw: raw}
	switch raw[0] {
	case '{':
		n.kind = kindObject
	case '[':
		n.kind = kindArray
	default:
		return n, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // the opening '{' or '['
		return nil, err
	}
	for dec.More() {
		var m member
		if n.kind == kindObject {
			keyStart := skipSeparators(raw, int(dec.InputOffset()))
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			m.key, _ = tok.(string) // a decoder gives object keys as strings
			m.rawKey = raw[keyStart:dec.InputOffset()]
			if n.get(m.key) != nil {
				return nil, duplicateKey(data, start+keyStart, m.rawKey)
			}
		}
		vStart, vEnd, err := nextValue(dec, start)
		if err != nil {
			return nil, err
		}
		if m.value, err = parseValue(data, vStart, vEnd); err != nil {
			return nil, err
		}
		if n.kind == kindObject {
			n.members = append(n.members, m)
		} else {
			n.elems = append(n.elems, m.value)
		}
	}
	return n, nil
}

// skipSeparators returns where the token after offset from of data begins:
// in between there is only whitespace and at most one ',' or ':'.
func skipSeparators(data []byte, from int) int {
	for from < len(data) && strings.IndexByte(" \t\r\n,:", data[from]) >= 0 {
		from++
	}
	return from
}

// duplicateKey refuses a key that appears twice in one object. Claude
// Code, like every JSON reader, uses the last of the two: removing our
// entry from one could bring the other back to life, so the file is not
// edited.
func duplicateKey(data []byte, at int, rawKey []byte) error {
	line, col := lineCol(data, at)
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf("the key %s appears twice in one object", rawKey),
		Hint: "JSON readers keep only the last one; merge the two or delete one, then run hud again"}
}

// render writes n at nesting depth depth. Unchanged nodes are copied from
// the file; their inner lines keep the indentation they had, which is
// right because an edit never moves a value to another depth.
func (n *node) render(b *bytes.Buffer, st style, depth int) {
	if !n.changed() {
		b.Write(n.raw)
		return
	}
	switch n.kind {
	case kindScalar:
		b.Write(n.raw)
	case kindObject:
		renderList(b, st, depth, '{', '}', len(n.members), func(i int) {
			m := n.members[i]
			b.Write(m.rawKey)
			b.WriteByte(':')
			if st.space {
				b.WriteByte(' ')
			}
			m.value.render(b, st, depth+1)
		})
	case kindArray:
		renderList(b, st, depth, '[', ']', len(n.elems), func(i int) { n.elems[i].render(b, st, depth+1) })
	}
}

// renderList writes the count items of an object or an array between open
// and end, one a line at depth+1; an empty one stays on its line ("{}").
func renderList(b *bytes.Buffer, st style, depth int, open, end byte, count int, item func(i int)) {
	b.WriteByte(open)
	if count == 0 {
		b.WriteByte(end)
		return
	}
	for i := range count {
		if i > 0 {
			b.WriteByte(',')
		}
		newline(b, st, depth+1)
		item(i)
	}
	newline(b, st, depth)
	b.WriteByte(end)
}

func newline(b *bytes.Buffer, st style, depth int) {
	if st.indent == "" {
		return
	}
	if st.crlf {
		b.WriteByte('\r')
	}
	b.WriteByte('\n')
	for range depth {
		b.WriteString(st.indent)
	}
}

// detectStyle reads the indentation of the top-level object's first
// member. An empty or absent object gets Claude Code's own style; a
// one-line object stays on one line.
func detectStyle(root *node) style {
	if root.kind != kindObject || len(root.members) == 0 || root.raw == nil {
		return defaultStyle
	}
	raw := root.raw
	inner := raw[1:] // after '{'
	nl := bytes.IndexByte(inner, '\n')
	key := bytes.Index(inner, root.members[0].rawKey)
	st := style{crlf: bytes.Contains(raw, []byte("\r\n"))}
	if nl >= 0 && nl < key {
		ws := inner[nl+1 : key]
		ws = bytes.TrimLeft(ws, "\r\n")
		st.indent = string(ws)
		if st.indent == "" {
			st.indent = defaultStyle.indent
		}
	}
	after := inner[key+len(root.members[0].rawKey):]
	after = bytes.TrimLeft(after, " \t\r\n")
	if len(after) > 1 && after[0] == ':' {
		st.space = after[1] == ' ' || after[1] == '\t' || after[1] == '\n'
	}
	return st
}
