// Package byindex is a table keyed by a stream's index numbers (a tool
// call's index, an output_index): the mergers look a call up by its index
// on every piece of it. Streams count their indexes up from 0 in order, so
// a Table keeps those in a slice, read without hashing, and keeps any other
// index (negative, out of order, far ahead) in a map, so that any index a
// stream sends works as in a map. An index is in one or the other, never
// both.
package byindex
