package byindex

// Table maps int indexes to values as a map would. Its zero value is empty.
type Table[V any] struct {
	dense  []V // dense[i] is the value at index i
	sparse map[int]V
}

// Get returns the value at index and whether there is one.
func (t *Table[V]) Get(index int) (V, bool) {
	if index >= 0 && index < len(t.dense) {
		return t.dense[index], true
	}
	v, ok := t.sparse[index]
	return v, ok
}

// Set puts v at index, in place of any value there.
func (t *Table[V]) Set(index int, v V) {
	if index >= 0 && index < len(t.dense) {
		t.dense[index] = v
		return
	}
	if _, inSparse := t.sparse[index]; index == len(t.dense) && !inSparse {
		t.dense = append(t.dense, v)
		return
	}
	if t.sparse == nil {
		t.sparse = make(map[int]V)
	}
	t.sparse[index] = v
}

// Len is the number of indexes with a value.
func (t *Table[V]) Len() int { return len(t.dense) + len(t.sparse) }

// Map returns a copy of t whose values are f of t's.
func (t *Table[V]) Map(f func(V) V) Table[V] {
	b := Table[V]{dense: make([]V, len(t.dense))}
	for i, v := range t.dense {
		b.dense[i] = f(v)
	}
	if t.sparse != nil {
		b.sparse = make(map[int]V, len(t.sparse))
		for k, v := range t.sparse {
			b.sparse[k] = f(v)
		}
	}
	return b
}
