package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// BusyError is a lock held by another process (or another open file of
// this one).
type BusyError struct {
	Path string
	// Holder names the holder ("pid 123: esr eval --out rows.jsonl"), or
	// is "" when it cannot be found.
	Holder string
}

func (e *BusyError) Error() string {
	if e.Holder == "" {
		return e.Path + " is locked by another process"
	}
	return fmt.Sprintf("%s is locked by another process (%s)", e.Path, e.Holder)
}

// ErrBusy matches every *BusyError with errors.Is.
var ErrBusy = errors.New("safefile: locked by another process")

func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// Wait says how a lock is waited for: Timeout 0 fails at once with a
// *BusyError; a positive Timeout waits up to that long, negative for ever.
// Note, when set, receives one message when the wait begins (naming the
// holder).
type Wait struct {
	Timeout time.Duration
	Note    func(msg string)
}

// pollEvery is how often a waiting lock is tried again.
const pollEvery = 50 * time.Millisecond

// flockWait takes an exclusive flock on f, waiting as w says.
func flockWait(f *os.File, path string, w Wait) error {
	start := time.Now()
	noted := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("locking %s: %w", path, err)
		}
		busy := &BusyError{Path: path, Holder: Holder(path)}
		if w.Timeout == 0 || w.Timeout > 0 && time.Since(start) >= w.Timeout {
			return busy
		}
		if !noted && w.Note != nil {
			w.Note(busy.Error() + "; waiting for it")
			noted = true
		}
		time.Sleep(pollEvery)
	}
}

// OpenAppend opens path for reading and appending (creating it and its
// folder) and locks it exclusively until the file is closed. A lock held
// elsewhere is waited for as w says. Truncating or trimming the returned
// file keeps the lock (its inode stays the same).
func OpenAppend(path string, w Wait) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if err := flockWait(f, path, w); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// DirLock is an exclusive lock on a folder.
type DirLock struct{ f *os.File }

// LockDir locks the folder dir (creating it) exclusively until Unlock or
// the end of the process; a lock held elsewhere is waited for as w says.
func LockDir(dir string, w Wait) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := flockWait(f, dir, w); err != nil {
		f.Close()
		return nil, err
	}
	return &DirLock{f: f}, nil
}

// Unlock releases the lock.
func (l *DirLock) Unlock() error { return l.f.Close() }

// FileLock is an exclusive lock on a lock file of its own, removed on
// Release.
type FileLock struct {
	f    *os.File
	path string
}

// Acquire locks the lock file path (creating it), waiting as w says. The
// file is removed by Release, so no lock file is left behind; a lock file
// removed by another holder while this one waited is detected (its inode
// changed) and the lock taken again on the new file.
func Acquire(path string, w Wait) (*FileLock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		if err := flockWait(f, path, w); err != nil {
			f.Close()
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return &FileLock{f: f, path: path}, nil
		}
		f.Close() // the previous holder removed it: lock the new file
	}
}

// Release removes the lock file and releases the lock.
func (l *FileLock) Release() error {
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
