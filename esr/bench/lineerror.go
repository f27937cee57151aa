package bench

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// LineError is bad input at one line of one file, naming the field when it
// is known.
type LineError struct {
	File  string
	Line  int
	Field string
	Err   error
}

func (e *LineError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: field %q: %v", e.File, e.Line, e.Field, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// decodeLine unmarshals one JSON line into v. On failure it finds the field
// that failed (a path such as events[3].timestamp) by decoding field by field.
func decodeLine(file string, line int, data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return &LineError{File: file, Line: line, Err: fmt.Errorf("malformed JSON: %v", err)}
	}
	if path, ferr := diagnose(probe, reflect.TypeOf(v).Elem()); path != "" {
		return &LineError{File: file, Line: line, Field: path, Err: ferr}
	}
	return &LineError{File: file, Line: line, Err: err}
}

// diagnose decodes each field of obj into its Go type t (a struct) and
// returns the path of the first that fails, recursing into structs and
// slices of structs.
func diagnose(obj map[string]json.RawMessage, t reflect.Type) (string, error) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "" || name == "-" {
			continue
		}
		raw, ok := obj[name]
		if !ok {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			var elems []json.RawMessage
			if err := json.Unmarshal(raw, &elems); err != nil {
				return name, fmt.Errorf("not a list: %v", err)
			}
			for j, e := range elems {
				var sub map[string]json.RawMessage
				if err := json.Unmarshal(e, &sub); err != nil {
					return name + "[" + strconv.Itoa(j) + "]", fmt.Errorf("not an object")
				}
				if p, err := diagnose(sub, ft.Elem()); p != "" {
					return name + "[" + strconv.Itoa(j) + "]." + p, err
				}
			}
			continue
		}
		if err := json.Unmarshal(raw, reflect.New(ft).Interface()); err != nil {
			return name, cleanJSONError(err)
		}
	}
	return "", nil
}

// cleanJSONError turns encoding/json's type errors into a short sentence.
func cleanJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if ok := asType(err, &te); ok {
		return fmt.Errorf("%s is not a %s", te.Value, te.Type)
	}
	return err
}

func asType(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}
