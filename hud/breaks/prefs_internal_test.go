package breaks

import (
	"reflect"
	"testing"
)

// TestPrefsEqualSeesEveryField: a preference added to Prefs must be
// compared by equal and copied by clone, or Update would not write a
// change of it (it compares values, not the encoded file).
func TestPrefsEqualSeesEveryField(t *testing.T) {
	typ := reflect.TypeFor[Prefs]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		var p Prefs
		v := reflect.ValueOf(&p).Elem().Field(i)
		switch f.Type.Kind() {
		case reflect.Float64:
			v.SetFloat(1)
		case reflect.Map:
			m := reflect.MakeMap(f.Type)
			m.SetMapIndex(reflect.New(f.Type.Key()).Elem(), reflect.New(f.Type.Elem()).Elem())
			v.Set(m)
		default:
			t.Fatalf("Prefs.%s is a %s: teach equal, clone and this test about it", f.Name, f.Type)
		}
		if p.equal(Prefs{}) || (Prefs{}).equal(p) {
			t.Errorf("equal does not see Prefs.%s", f.Name)
		}
		c := p.clone()
		if !c.equal(p) {
			t.Errorf("clone loses Prefs.%s", f.Name)
		}
		if f.Type.Kind() == reflect.Map {
			reflect.ValueOf(&c).Elem().Field(i).SetMapIndex(reflect.ValueOf("other"), reflect.New(f.Type.Elem()).Elem())
			if c.equal(p) {
				t.Errorf("clone shares Prefs.%s with the original", f.Name)
			}
		}
	}
}
