package answer

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// permissionUpdate is one of Claude's permission_suggestions, what the
// terminal's "Yes, and don't ask again" would add, and the one update hud
// sends back for it: always rebuilt from the fields read here (one rule or
// one directory), so nothing rides along that the label does not name.
type permissionUpdate struct {
	Type        string           `json:"type"`
	Rules       []permissionRule `json:"rules,omitempty"`
	Behavior    string           `json:"behavior,omitempty"`
	Directories []string         `json:"directories,omitempty"`
	Destination string           `json:"destination"`
}

type permissionRule struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// always is the label of "Yes, and don't ask again" and the one update it
// applies; "" when Claude suggests nothing hud can name whole.
//
// The label names exactly what the answer adds, so the answer adds one
// thing: the first rule allowed, or the first directory, that Claude
// suggests for this project or session. Claude's other suggestions (a
// second rule, a switch of permission mode, a rule for every project) are
// the terminal's to offer: a person who clicks a label naming one rule
// agreed to that rule alone.
func (d Dialog) always() (string, permissionUpdate) {
	var sugs []permissionUpdate
	if json.Unmarshal(d.Suggestions, &sugs) != nil {
		return "", permissionUpdate{}
	}
	for _, s := range sugs {
		if s.Destination != "localSettings" && s.Destination != "session" {
			continue // a rule for every project is more than "don't ask again"
		}
		var label string
		var update permissionUpdate
		switch {
		case s.Type == "addRules" && s.Behavior == "allow" && len(s.Rules) > 0 && s.Rules[0].ToolName != "":
			r := s.Rules[0]
			label = d.ruleLabel(r)
			update = permissionUpdate{Type: s.Type, Rules: []permissionRule{r}, Behavior: s.Behavior, Destination: s.Destination}
		case s.Type == "addDirectories" && len(s.Directories) > 0 && filepath.IsAbs(s.Directories[0]):
			// The directory as the label names it, lexically clean, is
			// the one Claude gets.
			dir := filepath.Clean(s.Directories[0])
			label = "Yes, and always allow access to " + dirLabel(dir) + " from this project"
			update = permissionUpdate{Type: s.Type, Directories: []string{dir}, Destination: s.Destination}
		default:
			continue
		}
		if shown, whole := shownWhole(label, maxLabel); whole && shown == label {
			return label, update
		}
		return "", permissionUpdate{}
	}
	return "", permissionUpdate{}
}

// ruleLabel words one rule as the terminal does ("npm test *" for a rule
// of the dialog's own tool), naming the tool when it is another one, and
// reading under a directory by the directory's whole path.
func (d Dialog) ruleLabel(r permissionRule) string {
	if dir, ok := readDir(r); ok {
		return "Yes, allow reading from " + dirLabel(dir) + " from this project"
	}
	switch {
	case r.RuleContent == "":
		return "Yes, and don't ask again for any " + r.ToolName + " call"
	case r.ToolName == d.Tool:
		return "Yes, and don't ask again for: " + r.RuleContent
	}
	return "Yes, and don't ask again for: " + r.ToolName + "(" + r.RuleContent + ")"
}

// readDir is the directory a Read rule allows everything under
// ("//etc/**": /etc).
func readDir(r permissionRule) (string, bool) {
	if r.ToolName != "Read" {
		return "", false
	}
	rest, ok := strings.CutPrefix(r.RuleContent, "//")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, "/**")
	if !ok || rest == "" || strings.ContainsAny(rest, "*?[") {
		return "", false
	}
	return "/" + rest, true
}

// dirLabel names a directory in a choice by its whole path ("/home/dev/proj/"),
// where the terminal says "proj/": a directory elsewhere with the same
// name must not read as the project's.
func dirLabel(dir string) string {
	return strings.TrimSuffix(dir, "/") + "/"
}
