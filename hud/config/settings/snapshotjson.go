package settings

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/capacitor-hud/hud/internal/jsonscan"
)

// decodeSnapshot reads the hook's copy of the settings as json.Unmarshal
// would into snap (which holds the defaults). The hook reads it on every
// prompt; encoding/json would first build its decoders for Config's nine
// struct types by reflection, in every hook run that reads it. The copy is
// json.Marshal's, objects of booleans and integers keyed by field name,
// and is read here by walking Config's fields; a key that is not exactly
// a field's name (encoding/json folds case) or a value of another shape
// is left to encoding/json.
func decodeSnapshot(data []byte, snap *snapshot) bool {
	s := jsonscan.New(data)
	err := s.Object(func(key string) error {
		switch key {
		case "version":
			if s.Null() {
				return nil
			}
			n, err := s.Int(strconv.IntSize)
			snap.Version = int(n)
			return err
		case "source_sha256":
			if s.Null() {
				return nil
			}
			return s.String(&snap.Source)
		case "config":
			return decodeFields(s, reflect.ValueOf(&snap.Config).Elem())
		}
		return jsonscan.ErrFallback
	})
	return err == nil && s.End()
}

// decodeFields reads an object into the struct v, field by field.
func decodeFields(s *jsonscan.Scanner, v reflect.Value) error {
	if s.Null() {
		return nil
	}
	return s.Object(func(key string) error {
		f, ok := v.Type().FieldByName(key)
		if !ok || !f.IsExported() || len(f.Index) != 1 || f.Tag != "" {
			return jsonscan.ErrFallback
		}
		field := v.Field(f.Index[0])
		if decodesItself(field.Type()) {
			return jsonscan.ErrFallback
		}
		if s.Null() {
			return nil
		}
		switch field.Kind() {
		case reflect.Bool:
			var b bool
			if err := s.Bool(&b); err != nil {
				return err
			}
			field.SetBool(b)
			return nil
		case reflect.Int, reflect.Int64:
			n, err := s.Int(field.Type().Bits())
			if err != nil {
				return err
			}
			field.SetInt(n)
			return nil
		case reflect.Struct:
			return decodeFields(s, field)
		}
		return jsonscan.ErrFallback
	})
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether encoding/json would hand a value of t to
// t's own UnmarshalJSON or UnmarshalText, which walking its fields would
// bypass.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler)
}
