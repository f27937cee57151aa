package relate

import "unsafe"

// unsafeString views b as a string without copying; callers use the result
// only for map look-ups before b changes.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
