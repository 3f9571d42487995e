package quirk

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Separator joins the parts of a composed quirk's name: "comments+crlf".
const Separator = "+"

// ErrUnknown is returned by Lookup for a name (or a part of one) that is
// no quirk of All.
var ErrUnknown = errors.New("unknown quirk")

// ErrCannotCompose is returned by Lookup for a composition whose parts
// cannot be applied one after the other without one undoing, or editing
// again, what another did; its message names both parts and why.
var ErrCannotCompose = errors.New("cannot compose")

// Lookup returns the quirk of All named name, or the composition of the
// quirks its parts name when it joins several with Separator
// ("ids_dropped+args_one_rune"): see Compose.
func Lookup(name string) (Quirk, error) {
	all := All()
	find := func(n string) (Quirk, error) {
		if i := slices.IndexFunc(all, func(q Quirk) bool { return q.Name == n }); i >= 0 {
			return all[i], nil
		}
		return Quirk{}, fmt.Errorf("%w %q", ErrUnknown, n)
	}
	if !strings.Contains(name, Separator) {
		return find(name)
	}
	var parts []Quirk
	for _, n := range strings.Split(name, Separator) {
		if n == "" {
			return Quirk{}, fmt.Errorf("%w %q: a part is empty", ErrUnknown, name)
		}
		q, err := find(n)
		if err != nil {
			return Quirk{}, err
		}
		parts = append(parts, q)
	}
	return Compose(parts...)
}

// Compose returns the quirk that applies parts one after the other, left
// to right, each to what the one before made of the stream, every part
// with the same seed. It is benign when every part is; it drops ids, warns
// or adds reasoning when a part does; its markers are all the parts'. Its
// format is the parts' (a format-free part takes any): parts of two
// formats are refused, and so are parts that composeRefusal finds undo
// or edit again what another did, with ErrCannotCompose.
//
// Its Stream chains the parts' Streams, so it holds what its parts hold,
// each in turn (Holds lists them): what one part sends on is what the
// next one reads, and what the last sends is what the composition sends,
// exactly Apply's bytes. A part that refuses the answer (ErrNotApplicable)
// passes on what it reads as it came, and the others go on editing; the
// whole-body Apply refuses the answer instead, naming the part.
func Compose(parts ...Quirk) (Quirk, error) {
	if len(parts) < 2 {
		return Quirk{}, fmt.Errorf("%w: a composition needs two parts or more, got %d", ErrCannotCompose, len(parts))
	}
	c := Quirk{Benign: true, OnArguments: true, parts: slices.Clone(parts)}
	var names, docs []string
	for i, p := range parts {
		for _, earlier := range parts[:i] {
			if why := composeRefusal(earlier, p); why != "" {
				return Quirk{}, fmt.Errorf("%w %s with %s: %s", ErrCannotCompose, earlier.Name, p.Name, why)
			}
		}
		names = append(names, p.Name)
		docs = append(docs, p.Name+": "+p.Doc)
		c.Benign = c.Benign && p.Benign
		c.OnArguments = c.OnArguments && p.OnArguments // one part that edits more reaches the agent
		c.DropsIDs = c.DropsIDs || p.DropsIDs
		c.Echoes = c.Echoes || p.Echoes
		c.Warns = c.Warns || p.Warns
		c.Reasoning = c.Reasoning || p.Reasoning
		for _, m := range p.Markers {
			if !slices.Contains(c.Markers, m) {
				c.Markers = append(c.Markers, m)
			}
		}
		if p.API != "" {
			c.API = p.API
		}
		c.compose.edits |= p.compose.edits
		c.compose.needs |= p.compose.needs
		c.compose.rewrites |= p.compose.rewrites
		c.compose.closes |= p.compose.closes
	}
	c.Name = strings.Join(names, Separator)
	c.Doc = "the parts in turn: " + strings.Join(docs, "; ")
	c.Apply = func(body []byte, seed int64) ([]byte, error) {
		for _, p := range c.parts {
			out, err := p.Apply(body, seed)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.Name, err)
			}
			body = out
		}
		return body, nil
	}
	return c, nil
}

// composeRefusal says why part b cannot come after part a in a
// composition ("" when it can), from what each says it edits (aspects):
//   - the same quirk twice would edit its own edit;
//   - parts of two formats never both apply to one stream;
//   - two parts that break the answer leave no one way it is broken (and
//     no one expectation for conform);
//   - two parts that edit the same aspect: the second edits the first's
//     edit, not the clean stream's;
//   - a part that needs an aspect as the clean stream has it, with a part
//     that edits it, in either order;
//   - a part that writes an aspect anew after one that edited it undoes
//     that edit (every part writes the line ends again: crlf goes last);
//   - a part that closes an aspect (a cut stream: everything but the
//     lines) before one that edits it.
func composeRefusal(a, b Quirk) string {
	switch x, y := a.compose, b.compose; {
	case a.Name == b.Name:
		return a.Name + " comes twice"
	case a.API != "" && b.API != "" && a.API != b.API:
		return fmt.Sprintf("%s edits %s streams, %s %s streams", a.Name, a.API, b.Name, b.API)
	case !a.Benign && !b.Benign:
		return "both break the answer"
	case x.edits&y.edits != 0:
		return "both edit " + (x.edits & y.edits).String()
	case x.needs&y.edits != 0:
		return fmt.Sprintf("%s needs the %s that %s edits", a.Name, x.needs&y.edits, b.Name)
	case y.needs&x.edits != 0:
		return fmt.Sprintf("%s needs the %s that %s edits", b.Name, y.needs&x.edits, a.Name)
	case x.edits&y.rewrites != 0:
		return fmt.Sprintf("%s writes the %s again, undoing %s (put %s after it)", b.Name, x.edits&y.rewrites, a.Name, a.Name)
	case x.closes&y.edits != 0:
		return fmt.Sprintf("%s edits %s, which %s has closed (put %s before it)", b.Name, x.closes&y.edits, a.Name, b.Name)
	}
	return ""
}

// Parts are a composition's quirks in the order they apply, nil for a
// quirk of All.
func (q Quirk) Parts() []Quirk { return slices.Clone(q.parts) }

// holdsParts is Holds for a composition: "nothing" when no part holds
// anything, "the answer" when a part holds it (the parts after it read
// nothing before its end), else what each part holds, in turn.
func (q Quirk) holdsParts() string {
	var each []string
	nothing := true
	for _, p := range q.parts {
		h := p.Holds()
		if h == "the answer" {
			return h
		}
		nothing = nothing && h == "nothing"
		each = append(each, p.Name+": "+h)
	}
	if nothing {
		return "nothing"
	}
	return "what its parts hold, in turn (" + strings.Join(each, "; ") + ")"
}
