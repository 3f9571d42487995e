package quirk

// jsonObject is a JSON object that keeps its members in the order they were
// read, so a chunk that a quirk transform rewrites keeps the field order the
// gateway sent (id, object, created, model, choices, ...) and a rewritten
// stream reads like the clean one line for line. Member values are
// *jsonObject, []any, json.Number, string, bool or nil.
type jsonObject struct {
	keys []string
	vals map[string]any
}

// The readers below accept a nil object, which has no members.

// get returns the member's value and whether it is present.
func (o *jsonObject) get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// object returns the member as an object, or nil.
func (o *jsonObject) object(key string) *jsonObject {
	if o == nil {
		return nil
	}
	v, _ := o.vals[key].(*jsonObject)
	return v
}

// array returns the member as an array, or nil.
func (o *jsonObject) array(key string) []any {
	if o == nil {
		return nil
	}
	v, _ := o.vals[key].([]any)
	return v
}

// str returns the member as a string; "" when absent or not a string.
func (o *jsonObject) str(key string) string {
	if o == nil {
		return ""
	}
	v, _ := o.vals[key].(string)
	return v
}

// set replaces the member's value in place, or appends the member.
func (o *jsonObject) set(key string, val any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = val
}

// setAfter sets the member; a new member goes right after the member
// named after (or first when after is absent), as a gateway would place it.
func (o *jsonObject) setAfter(after, key string, val any) {
	if _, ok := o.vals[key]; ok {
		o.vals[key] = val
		return
	}
	pos := 0
	for i, k := range o.keys {
		if k == after {
			pos = i + 1
		}
	}
	o.keys = append(o.keys[:pos], append([]string{key}, o.keys[pos:]...)...)
	o.vals[key] = val
}

// del removes the member if present.
func (o *jsonObject) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// clone is a deep copy.
func (o *jsonObject) clone() *jsonObject {
	c := &jsonObject{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = cloneJSON(v)
	}
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
