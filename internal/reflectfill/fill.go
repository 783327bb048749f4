// Package reflectfill sets every field of a value, for tests that must
// notice a field added to a type: a hand-written encoder or decoder held
// to encoding/json by a test that fills its type this way fails when the
// type gains a field the hand-written code does not know.
package reflectfill

import (
	"fmt"
	"reflect"
)

// Fill sets every field reachable from v (which must be settable) to a
// distinct non-zero value: strings with characters JSON escapes (quotes,
// HTML, a backslash, non-ASCII, U+2028, control characters), numbers,
// true, a new value behind each pointer and two elements in each slice.
// special, when not nil and it returns true, has set v itself (a type
// with its own encoding); n numbers the value. A kind Fill cannot set is
// an error naming it.
func Fill(v reflect.Value, special func(v reflect.Value, n int) bool) error {
	n := 0
	return fill(v, special, &n)
}

func fill(v reflect.Value, special func(reflect.Value, int) bool, n *int) error {
	*n++
	if special != nil && special(v, *n) {
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("v%d \"q\" <&> \\ é 😀 \u2028 \n\t%c", *n, rune(*n%32)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n) * 1009)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		return fill(v.Elem(), special, n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			if err := fill(v.Index(i), special, n); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if err := fill(v.Field(i), special, n); err != nil {
				return fmt.Errorf("%s.%s: %w", v.Type().Name(), v.Type().Field(i).Name, err)
			}
		}
	default:
		return fmt.Errorf("a field of kind %v: teach the hand-written code and reflectfill", v.Kind())
	}
	return nil
}
