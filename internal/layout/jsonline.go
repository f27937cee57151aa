package layout

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// jsonTypes caches JSONStrings' struct types by key list.
var jsonTypes sync.Map // keys joined by NUL → reflect.Type

// JSONStrings decodes s, one JSON object, and returns the string values of
// the members named keys, in order ("" for one absent or null). It decodes
// into a struct type whose field tags are keys (built once per key list), so
// encoding/json matches members as it does for any tagged struct (exactly,
// else without regard to case; a later member wins), while the names come
// from the render vocabulary (esr), which a literal struct tag could not
// name. ok is false when s is not a JSON object or a named member is not a
// string.
func JSONStrings(s string, keys ...string) (vals []string, ok bool) {
	id := strings.Join(keys, "\x00")
	t, found := jsonTypes.Load(id)
	if !found {
		fields := make([]reflect.StructField, len(keys))
		for i, k := range keys {
			fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: reflect.TypeFor[string](),
				Tag: reflect.StructTag(`json:` + strconv.Quote(k))}
		}
		t, _ = jsonTypes.LoadOrStore(id, reflect.StructOf(fields))
	}
	v := reflect.New(t.(reflect.Type))
	if json.Unmarshal([]byte(s), v.Interface()) != nil {
		return nil, false
	}
	vals = make([]string, len(keys))
	for i := range vals {
		vals[i] = v.Elem().Field(i).String()
	}
	return vals, true
}
