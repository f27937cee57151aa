package adapter

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"syscall"
)

// RunEnv is the variable every adapter process starts with, set to a value
// of its own (random, one per process esrkit starts): its children inherit
// it, which is how they are found and ended with it, even those that left
// its process group and session (setsid) or whose parent has exited.
const RunEnv = "ESR_ADAPTER_RUN"

// newRunMark is a fresh value for RunEnv.
func newRunMark() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// killMarked kills, with SIGKILL, every process of the caller's whose
// environment holds RunEnv=mark, again until a scan finds none it has not
// killed yet (a child may fork while it is being ended). It reads /proc
// (Linux): where there is none, it ends nothing, and only the process
// group is ended (killGroup).
func killMarked(mark string) {
	if mark == "" {
		return
	}
	killed := map[int]bool{}
	for round := 0; round < 50; round++ {
		fresh := false
		for _, pid := range marked(mark) {
			if !killed[pid] {
				killed[pid], fresh = true, true
			}
			syscall.Kill(pid, syscall.SIGKILL)
		}
		if !fresh {
			return
		}
	}
}

// marked lists the processes whose environment (/proc/PID/environ, as the
// process started; readable for the caller's own processes) holds
// RunEnv=mark. A process that has exited (a zombie) shows none.
func marked(mark string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	entry := []byte(RunEnv + "=" + mark + "\x00")
	self := os.Getpid()
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue // gone, or another user's
		}
		if bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...)) {
			pids = append(pids, pid)
		}
	}
	return pids
}
