package standin

import (
	"encoding/json"
	"strings"
)

// schema is the part of a JSON schema Args reads. Gemini spells types in
// capitals ("STRING"), JSON Schema in lower case.
type schema struct {
	Type       string            `json:"type"`
	Properties map[string]schema `json:"properties"`
	Required   []string          `json:"required"`
	Enum       []any             `json:"enum"`
	Items      *schema           `json:"items"`
}

// Args returns a JSON object for a tool whose parameters are described by
// raw: the given values where the schema has those properties, and a
// plausible value for every other required property, so the agent's own
// validation accepts the call.
func Args(raw json.RawMessage, values map[string]any) string {
	var s schema
	_ = json.Unmarshal(raw, &s) // a schema we cannot read gets just the values
	obj := map[string]any{}
	for name, v := range values {
		if _, ok := s.Properties[name]; ok || len(s.Properties) == 0 {
			obj[name] = v
		}
	}
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			obj[name] = example(s.Properties[name], name)
		}
	}
	out, _ := json.Marshal(obj)
	return string(out)
}

// JSONExample returns a JSON value that satisfies the schema raw: how the
// stand-ins answer an agent's structured side requests (Gemini's
// next-speaker check and model router).
func JSONExample(raw json.RawMessage) string {
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return "{}"
	}
	out, _ := json.Marshal(example(s, ""))
	return string(out)
}

// example is a value of schema s for a property called name. An enum
// offering "user" gets it: the next-speaker check then hands the turn back
// to the person, as a finished answer should.
func example(s schema, name string) any {
	if len(s.Enum) > 0 {
		for _, e := range s.Enum {
			if e == "user" {
				return e
			}
		}
		return s.Enum[0]
	}
	switch strings.ToLower(s.Type) {
	case "object":
		obj := map[string]any{}
		for n, p := range s.Properties {
			obj[n] = example(p, n)
		}
		return obj
	case "array":
		if s.Items != nil {
			return []any{example(*s.Items, name)}
		}
		return []any{}
	case "boolean":
		return false
	case "number", "integer":
		return 0
	}
	if name == "description" || name == "reasoning" {
		return "stand-in step"
	}
	return "stand-in"
}
