package safefile

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Holder names the processes holding a flock on path, as "pid N: COMMAND",
// from /proc/locks (Linux); "" when none is found.
func Holder(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return ""
	}
	dev := uint64(st.Dev)
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	id := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	f, err := os.Open("/proc/locks")
	if err != nil {
		return ""
	}
	defer f.Close()
	var names []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 3211 fd:01:1234567 0 EOF"; waiters
		// have "->" after the number.
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || fs[1] != "FLOCK" || fs[5] != id || seen[fs[4]] {
			continue
		}
		seen[fs[4]] = true
		names = append(names, describe(fs[4]))
	}
	return strings.Join(names, ", ")
}

// describe is "pid N: COMMAND LINE" (the command shortened), or "pid N".
func describe(pid string) string {
	if n, err := strconv.Atoi(pid); err != nil || n <= 0 {
		return "pid " + pid
	}
	b, err := os.ReadFile("/proc/" + pid + "/cmdline")
	if err != nil || len(b) == 0 {
		return "pid " + pid
	}
	cmd := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "\x00", " ")), " ")
	if len(cmd) > 160 {
		cmd = cmd[:160] + "…"
	}
	return "pid " + pid + ": " + cmd
}
