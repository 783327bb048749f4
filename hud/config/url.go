package config

import (
	"errors"
	"net/url"
)

// checkURL accepts "" or an absolute http or https URL. Its errors never
// repeat the text: a push URL may hold a token, and problems are printed
// and logged.
func checkURL(text string) error {
	if text == "" {
		return nil
	}
	u, err := url.Parse(text)
	if err != nil {
		return errors.New("the URL does not parse")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("the URL must start with https:// or http://")
	}
	if u.Host == "" {
		return errors.New("the URL names no host")
	}
	return nil
}

// RedactURL is u as it may be printed: its scheme and host, the rest (a
// topic name, a token, a password) hidden. "" stays "".
func RedactURL(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "(a URL that does not parse)"
	}
	out := p.Scheme + "://" + p.Host + "/"
	if p.Path != "" && p.Path != "/" || p.RawQuery != "" || p.User != nil {
		out += "…"
	}
	return out
}
