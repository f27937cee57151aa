package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ReplaceDir writes a set of files as one: fill writes them into a new
// temporary folder beside dir, which then takes dir's place. On any error
// (of fill, a full disk, a file-size limit) the temporary folder is removed
// and dir is as it was: never part old set, part new. An existing dir is
// replaced only when it is empty or every entry in it is one that owned
// accepts (files a previous run of the same kind writes); otherwise
// ReplaceDir refuses before fill runs, naming the other entries, since the
// swap would take them away. The swap is one atomic exchange (renameat2
// with RENAME_EXCHANGE) where the file system has it, else two renames;
// the previous set is then removed. Temporary folders of writers that died
// are removed by the next ReplaceDir of the same dir.
func ReplaceDir(dir string, owned func(name string) bool, fill func(tmp string) error) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r // replace the folder a link names, not the link
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	if err := checkOwned(abs, dir, owned); err != nil {
		return err
	}
	prefix := "." + filepath.Base(abs) + ".tmp-"
	removeStaleDirs(parent, prefix)
	tmp, err := os.MkdirTemp(parent, prefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := fill(tmp); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	if _, err := os.Lstat(abs); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, abs); err != nil {
			return fmt.Errorf("writing %s: %w", dir, err)
		}
		done = true
		return nil
	}
	// Checked again: the folder may have changed while fill ran.
	if err := checkOwned(abs, dir, owned); err != nil {
		return err
	}
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, abs, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		// No atomic exchange here: move the old set aside, then the new in.
		old := tmp + ".old"
		if err := os.Rename(abs, old); err != nil {
			return fmt.Errorf("writing %s: %w", dir, err)
		}
		if err := os.Rename(tmp, abs); err != nil {
			os.Rename(old, abs)
			return fmt.Errorf("writing %s: %w", dir, err)
		}
		done = true
		return os.RemoveAll(old)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	// tmp now holds the previous set.
	return os.RemoveAll(tmp)
}

// checkOwned refuses a folder abs (named dir) holding entries owned does
// not accept; a missing folder passes.
func checkOwned(abs, dir string, owned func(string) bool) error {
	fi, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is a file, not a folder", dir)
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return err
	}
	var other []string
	for _, e := range ents {
		if e.Name() == MarkerFile && !e.IsDir() {
			continue // the writer's mark (Target.Mark): replaced with the set
		}
		if !owned(e.Name()) || e.IsDir() {
			other = append(other, e.Name())
		}
	}
	if len(other) > 0 {
		sort.Strings(other)
		return fmt.Errorf("%s holds %s, which this command does not write; replacing the folder would remove them: choose a new or empty folder",
			dir, strings.Join(other, ", "))
	}
	return nil
}

// removeStaleDirs removes temporary folders (NAME.tmp-PID-…) left in
// parent by writers that no longer run.
func removeStaleDirs(parent, prefix string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, prefix) {
			continue
		}
		pidText, _, ok := strings.Cut(name[len(prefix):], "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || alive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(parent, name))
	}
}
