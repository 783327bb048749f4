// Package jsonfields reads and writes a JSON object through one list of its
// fields, each a name and a pointer into a Go value, without reflection.
//
// It serves the hook's path. The hook is a fresh process on every event, and
// encoding/json builds each type's decoder and encoder by reflection the first
// time it meets the type, in every process again: most of what the JSON of a
// hook run cost. A type here lists its fields once, in a method beside its
// struct, and the same list decodes and encodes it, so a new field is written
// in one place.
//
// The lexing and escaping are jsontext's, the token layer of the standard
// library's next encoding/json (encoding/json/jsontext, still behind
// GOEXPERIMENT=jsonv2), taken from its module until it leaves the experiment.
// Decode and Append follow encoding/json where the two could differ: a
// member of the wrong type is reported after the rest is read, a name given
// twice keeps its last value, invalid UTF-8 reads as U+FFFD, and the output
// is laid out and escaped as MarshalIndent lays it out and escapes it.
package jsonfields
