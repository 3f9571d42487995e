package tools

import (
	"errors"
	"fmt"
)

// Lang selects the locale of every model-facing text: tool descriptions,
// parameter descriptions, headers, notes and failure texts.
type Lang string

const (
	// ZH is the default locale; it reproduces the lesson's exact strings.
	ZH Lang = "zh"
	// EN says the same things in English.
	EN Lang = "en"
)

// ErrUnknownLang is returned by ParseLang for a locale other than zh or en.
var ErrUnknownLang = errors.New("unknown language")

// ParseLang turns a flag or environment value into a Lang: "" means ZH.
func ParseLang(s string) (Lang, error) {
	switch s {
	case "", string(ZH):
		return ZH, nil
	case string(EN):
		return EN, nil
	}
	return "", fmt.Errorf("%w %q (want zh or en)", ErrUnknownLang, s)
}

// texts returns the catalogue of model-facing texts for lang (zh for anything
// but EN).
func (l Lang) texts() *catalog {
	if l == EN {
		return &enTexts
	}
	return &zhTexts
}
