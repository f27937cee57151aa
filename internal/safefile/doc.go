// Package safefile writes the files the kit makes for a user so that nothing
// partial or stale is left behind, and guards the files a run appends to
// against a second run.
//
// Write and WriteFile fill a temporary file in the target's folder and rename
// it into place: a failed write (a full disk, an error of the caller's fill
// function) leaves the previous file as it was and removes the temporary
// file; temporary files of writers that died (kill -9) are removed by the
// next write of the same file.
//
// Target.Check is the rule every command that writes applies first: no
// output inside an input folder, and no non-empty output that is not the
// command's own (a folder's MarkerFile names its writer; a file shows its
// format in its first bytes). Anything else is left as it is and refused.
//
// OpenAppend, LockDir and Acquire take exclusive advisory locks (flock) that
// end with the process. When another process holds one, the error (or the
// message while waiting) names it: its pid and command line, read from
// /proc/locks.
package safefile
