package standin

import (
	"encoding/json"
	"fmt"
	"strings"
)

// request is the part of a Messages API request body the stand-in reads.
type request struct {
	Model     string          `json:"model"`
	Messages  []message       `json:"messages"`
	System    json.RawMessage `json:"system"`
	Tools     []tool          `json:"tools"`
	Stream    bool            `json:"stream"`
	MaxTokens int             `json:"max_tokens"`
	// OutputConfig.Format asks for structured output (Claude Code's
	// session-title request does).
	OutputConfig struct {
		Format jsonFormat `json:"format"`
	} `json:"output_config"`
}

type jsonFormat struct {
	Type   string `json:"type"`
	Schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	} `json:"schema"`
}

// example returns a JSON object that satisfies a flat schema: "Stand-in
// session" for strings, zero values for the rest.
func (f jsonFormat) example() string {
	obj := map[string]any{}
	for name, p := range f.Schema.Properties {
		switch p.Type {
		case "string":
			obj[name] = "Stand-in session"
		case "boolean":
			obj[name] = false
		case "number", "integer":
			obj[name] = 0
		case "array":
			obj[name] = []any{}
		default:
			obj[name] = nil
		}
	}
	out, _ := json.Marshal(obj)
	return string(out)
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or a list of blocks
}

type tool struct {
	Name string `json:"name"`
}

type block struct {
	Type string `json:"type"`
	Text string `json:"text"`
	Name string `json:"name"` // a tool_use block's tool
}

// blocks returns a message's content as blocks: the API accepts a bare
// string as shorthand for one text block.
func (m message) blocks() ([]block, error) {
	if len(m.Content) == 0 {
		return nil, nil
	}
	var text string
	if err := json.Unmarshal(m.Content, &text); err == nil {
		return []block{{Type: "text", Text: text}}, nil
	}
	var bs []block
	if err := json.Unmarshal(m.Content, &bs); err != nil {
		return nil, fmt.Errorf("message content is neither a string nor a list of blocks: %w", err)
	}
	return bs, nil
}

// systemText flattens the system prompt (a string or a list of text blocks).
func (r request) systemText() string {
	if len(r.System) == 0 {
		return ""
	}
	var text string
	if err := json.Unmarshal(r.System, &text); err == nil {
		return text
	}
	var bs []block
	if err := json.Unmarshal(r.System, &bs); err != nil {
		return ""
	}
	var sb strings.Builder
	for _, b := range bs {
		sb.WriteString(b.Text)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// toolNames lists the tools the CLI offered, for the log when a directive
// asks for one it did not.
func (r request) toolNames() string {
	names := make([]string, 0, len(r.Tools))
	for _, t := range r.Tools {
		names = append(names, t.Name)
	}
	return strings.Join(names, ",")
}

func (r request) hasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
