package reflectfill

import (
	"reflect"
	"strings"
	"testing"
)

func TestFill(t *testing.T) {
	type inner struct{ S string }
	var v struct {
		S  string
		B  bool
		I  int
		I8 int8
		P  *inner
		L  []inner
		N  struct{ X int64 }
	}
	if err := Fill(reflect.ValueOf(&v).Elem(), nil); err != nil {
		t.Fatal(err)
	}
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if rv.Field(i).IsZero() {
			t.Errorf("%s left zero", rv.Type().Field(i).Name)
		}
	}
	if v.L[0].S == v.L[1].S {
		t.Errorf("two fields got the same value %q", v.L[0].S)
	}
	var m struct{ M map[string]int }
	if err := Fill(reflect.ValueOf(&m).Elem(), nil); err == nil || !strings.Contains(err.Error(), "map") {
		t.Errorf("a map field: %v, want an error naming its kind", err)
	}
}
