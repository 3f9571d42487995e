package quirk

import "slices"

// jsonObject is a JSON object that keeps its members in the order they were
// read, so a chunk that a quirk transform rewrites keeps the field order the
// gateway sent (id, object, created, model, choices, ...) and a rewritten
// stream reads like the clean one line for line. Member values are
// *jsonObject, []any, json.Number, string, bool or nil.
//
// The members are a slice, looked up one by one: a stream's objects have a
// handful of members, and a map for each cost more than the rest of the
// parse. An object that grows past indexFrom members gets an index, so a
// hostile answer with thousands of keys is not read in quadratic time.
type jsonObject struct {
	members []jsonMember
	index   map[string]int // nil, or each key's position in members
}

// jsonMember is one member of a jsonObject; a key appears once.
type jsonMember struct {
	key string
	val any
}

// indexFrom is the member count past which an object keeps an index.
const indexFrom = 16

// The readers below accept a nil object, which has no members.

// find returns the member's position, -1 when absent.
func (o *jsonObject) find(key string) int {
	if o == nil {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range o.members {
		if o.members[i].key == key {
			return i
		}
	}
	return -1
}

// get returns the member's value and whether it is present.
func (o *jsonObject) get(key string) (any, bool) {
	i := o.find(key)
	if i < 0 {
		return nil, false
	}
	return o.members[i].val, true
}

// object returns the member as an object, or nil.
func (o *jsonObject) object(key string) *jsonObject {
	v, _ := o.get(key)
	obj, _ := v.(*jsonObject)
	return obj
}

// array returns the member as an array, or nil.
func (o *jsonObject) array(key string) []any {
	v, _ := o.get(key)
	arr, _ := v.([]any)
	return arr
}

// str returns the member as a string; "" when absent or not a string.
func (o *jsonObject) str(key string) string {
	v, _ := o.get(key)
	s, _ := v.(string)
	return s
}

// set replaces the member's value in place, or appends the member.
func (o *jsonObject) set(key string, val any) {
	if i := o.find(key); i >= 0 {
		o.members[i].val = val
		return
	}
	if o.members == nil {
		o.members = make([]jsonMember, 0, 4) // most of a stream's objects: one allocation
	}
	o.members = append(o.members, jsonMember{key, val})
	switch {
	case o.index != nil:
		o.index[key] = len(o.members) - 1
	case len(o.members) > indexFrom:
		o.reindex()
	}
}

// setAfter sets the member; a new member goes right after the member
// named after (or first when after is absent), as a gateway would place it.
func (o *jsonObject) setAfter(after, key string, val any) {
	if i := o.find(key); i >= 0 {
		o.members[i].val = val
		return
	}
	pos := o.find(after) + 1
	o.members = slices.Insert(o.members, pos, jsonMember{key, val})
	o.reindex()
}

// del removes the member if present.
func (o *jsonObject) del(key string) {
	i := o.find(key)
	if i < 0 {
		return
	}
	o.members = append(o.members[:i:i], o.members[i+1:]...)
	o.reindex()
}

// reindex rebuilds the index after members moved: none for a small object.
func (o *jsonObject) reindex() {
	if len(o.members) <= indexFrom {
		o.index = nil
		return
	}
	o.index = make(map[string]int, len(o.members))
	for i, m := range o.members {
		o.index[m.key] = i
	}
}

// clone is a deep copy.
func (o *jsonObject) clone() *jsonObject {
	c := &jsonObject{members: make([]jsonMember, len(o.members))}
	for i, m := range o.members {
		c.members[i] = jsonMember{m.key, cloneJSON(m.val)}
	}
	c.reindex()
	return c
}

func cloneJSON(v any) any {
	switch t := v.(type) {
	case *jsonObject:
		return t.clone()
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = cloneJSON(e)
		}
		return c
	default:
		return v
	}
}
