// Package fieldstest checks that a type's jsonfields list covers the type:
// Fill gives every field a value of its own, and a round trip through the
// list must bring each back, so a field added to the struct and not to
// the list fails its package's test.
package fieldstest

import (
	"fmt"
	"reflect"
)

// Fill sets every exported field of the struct v points to, and of the
// structs and pointers to structs in it, to a value that is neither its
// zero nor another field's: a string its path, a number its position, a
// slice one element, raw JSON (a []byte) an object. A field whose type
// writes its own JSON (it has a MarshalJSON method) is left to set, which
// reports whether it knew the type (set may be nil: it knows none); Fill
// panics on one it did not, and on a kind it cannot fill.
func Fill(v any, set func(reflect.Value) bool) {
	n := 0
	fields(reflect.ValueOf(v).Elem(), reflect.TypeOf(v).Elem().Name(), &n, set)
}

// fields fills the exported fields of the struct v.
func fields(v reflect.Value, path string, n *int, set func(reflect.Value) bool) {
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() {
			fill(v.Field(i), path+"."+f.Name, n, set)
		}
	}
}

var marshaler = reflect.TypeFor[interface{ MarshalJSON() ([]byte, error) }]()

func fill(v reflect.Value, path string, n *int, set func(reflect.Value) bool) {
	*n++
	if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 { // raw JSON
		v.SetBytes(fmt.Appendf(nil, `{"n":%d}`, *n))
		return
	}
	if v.Type().Implements(marshaler) || reflect.PointerTo(v.Type()).Implements(marshaler) {
		if set == nil || !set(v) {
			panic(fmt.Sprintf("fieldstest: %s: no value for a %s", path, v.Type()))
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(path)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), path+"[0]", n, set)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), path, n, set)
	case reflect.Struct:
		fields(v, path, n, set)
	default:
		panic(fmt.Sprintf("fieldstest: %s: cannot fill a %s", path, v.Type()))
	}
}
