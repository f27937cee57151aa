package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// These tests each cover one failure found by an attack on the kit;
// each failed before its fix.

// Item 10: NaN passed every probability check written as f < 0 || f > 1,
// and ran as 0 labelled NaN. Each way in is refused, naming the value.
func TestNaNIsNotAProbability(t *testing.T) {
	fig := figure1Dir(t)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"gen", []string{"gen", "--seed", "1", "--per-stratum", "1", "--paraphrase", "NaN", "--out", filepath.Join(t.TempDir(), "g")}, "paraphrase"},
		{"gen-inf", []string{"gen", "--seed", "1", "--per-stratum", "1", "--clutter", "+Inf", "--out", filepath.Join(t.TempDir(), "g")}, "clutter"},
		{"explore", []string{"explore", "--bench", fig, "--stratum", "all", "--noise", "NaN"}, "noise"},
		{"class", []string{"eval", "--bench", fig, "--memory", "graphiti@paraphrase=NaN", "--reader", "oracle", "--out", filepath.Join(t.TempDir(), "r.jsonl")}, "paraphrase"},
		{"ledger", []string{"ledger", "--atoms", filepath.Join(fig, "atoms.jsonl"), "--streams", filepath.Join(fig, "streams.jsonl"), "--relation-noise", "NaN"}, "relation-noise"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, c.args...)
			if code == 0 {
				t.Fatalf("esr %s exited 0 (stdout %q)", strings.Join(c.args, " "), firstLine(out))
			}
			if !strings.Contains(errOut, c.want) || !strings.Contains(strings.ToLower(errOut), "nan") && !strings.Contains(errOut, "Inf") {
				t.Errorf("the error does not name %s and its value: %s", c.want, errOut)
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

var _ = os.Stat

// renderMatchedRows evaluates the render-matched memories on bench with
// the oracle and a scripted reader into a new outcomes file.
func renderMatchedRows(t *testing.T, bench string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	mustCLI(t, "eval", "--bench", bench, "--memory", "graphrag-abstain,render-only,fine-ledger,coarse-retain,coarse-retain~render-only",
		"--reader", "oracle,scripted:status-reader", "--out", out)
	return out
}

// Item 5: conflicting duplicate rows were paired last-one-wins (esr judge
// term: fine-d 0.000 → +0.400 with one conflicting duplicate). They are an
// error naming both lines; identical duplicates collapse.
func TestConflictingDuplicateRows(t *testing.T) {
	b := smallBench(t)
	rows := renderMatchedRows(t, b)
	data, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	// A fine-ledger snapshot row on a reverted revert, duplicated with the
	// other verdict.
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `"memory":"fine-ledger"`) && strings.Contains(l, `"phenomenon":"reverted_revert"`) &&
			strings.Contains(l, `"query_type":"snapshot"`) && strings.Contains(l, `"reader":"scripted:status-reader"`) {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("no fine-ledger reverted-revert snapshot row")
	}
	// judge term rescores the stored answers, so the duplicate answers
	// something else.
	var row map[string]any
	if err := json.Unmarshal([]byte(lines[at]), &row); err != nil {
		t.Fatal(err)
	}
	row["answer"], row["raw_answer"], row["correct"] = "not the gold "+fmt.Sprint(row["gold"]), "not the gold", !row["correct"].(bool)
	fb, _ := json.Marshal(row)
	flip := string(fb) + "\n"
	same := filepath.Join(t.TempDir(), "same.jsonl")
	os.WriteFile(same, []byte(string(data)+lines[at]), 0o644)
	conflict := filepath.Join(t.TempDir(), "conflict.jsonl")
	os.WriteFile(conflict, []byte(string(data)+flip), 0o644)
	term := func(path string) (string, string, int) {
		return runCLI(t, "judge", "term", "--rows", path, "--bench", b, "--judge", "exact,exact-lenient", "--format", "csv")
	}
	want, errOut, code := term(rows)
	if code != 0 {
		t.Fatalf("judge term: %s", errOut)
	}
	if got, errOut, code := term(same); code != 0 || got != want {
		t.Errorf("an identical duplicate changed the judge term (exit %d, %s):\n%s\nwant\n%s", code, errOut, got, want)
	}
	got, errOut, code := term(conflict)
	if code == 0 {
		t.Fatalf("a conflicting duplicate was paired (exit 0):\n%s\nwithout it:\n%s", got, want)
	}
	for _, w := range []string{fmt.Sprintf("conflict.jsonl:%d", at+1), fmt.Sprintf("conflict.jsonl:%d", len(lines)+1)} {
		if !strings.Contains(errOut, w) {
			t.Errorf("the error does not name line %s: %s", w, errOut)
		}
	}
}

// Item 1: --out was trusted to be an outcomes file: the torn-line trim ran
// before anything checked that the file held this command's rows, so a
// JSON file lost its content, the bench's qa.jsonl got rows appended, a
// notes file lost its last line. A file that is not empty and not an
// outcomes file of the same kind is refused and left as it was, and so is
// any path inside the bench folder; for esr eval and esr rejudge alike.
func TestOutMustBeThisCommandsRows(t *testing.T) {
	b := smallBench(t)
	dir := t.TempDir()
	evalRows := filepath.Join(dir, "rows.jsonl")
	mustCLI(t, "eval", "--bench", b, "--memory", "fine-ledger", "--reader", "oracle", "--out", evalRows)
	rescored := filepath.Join(dir, "rescored.jsonl")
	mustCLI(t, "rejudge", "--rows", evalRows, "--bench", b, "--judge", "exact-lenient", "--out", rescored)
	files := map[string]string{
		"json":     `{"a":1}`,
		"notes":    "first line\nsecond line\nlast line, no newline",
		"row-like": `{"qid":"q1","question":"?"}` + "\n",
	}
	qa := filepath.Join(b, "qa.jsonl")
	for _, cmd := range []string{"eval", "rejudge"} {
		for _, fresh := range []bool{false, true} {
			targets := map[string]string{"bench qa.jsonl": qa, "bench new file": filepath.Join(b, "out.jsonl")}
			for name, content := range files {
				p := filepath.Join(t.TempDir(), name+".txt")
				os.WriteFile(p, []byte(content), 0o644)
				targets[name] = p
			}
			if cmd == "eval" {
				targets["rescored rows"] = rescored
			} else {
				targets["eval rows"] = evalRows
			}
			for name, out := range targets {
				before, _ := os.ReadFile(out)
				args := []string{"eval", "--bench", b, "--memory", "fine-ledger", "--reader", "oracle", "--out", out}
				if cmd == "rejudge" {
					args = []string{"rejudge", "--rows", evalRows, "--bench", b, "--judge", "exact-strict", "--out", out}
				}
				if fresh {
					args = append(args, "--fresh")
				}
				_, errOut, code := runCLI(t, args...)
				after, err := os.ReadFile(out)
				if code == 0 {
					t.Errorf("esr %s --out %s (fresh %v) exited 0", cmd, name, fresh)
				} else if !strings.Contains(errOut, filepath.Base(out)) {
					t.Errorf("esr %s --out %s: the refusal does not name the file: %s", cmd, name, errOut)
				}
				if string(after) != string(before) || (before == nil) != os.IsNotExist(err) {
					t.Errorf("esr %s --out %s (fresh %v) changed the file: %q → %q", cmd, name, fresh, firstLine(string(before)), firstLine(string(after)))
				}
			}
		}
	}
	if _, err := bench.Load(b); err != nil {
		t.Errorf("the bench no longer loads: %v", err)
	}
	// Its own rows resume, and a torn first row is trimmed, as before.
	mustCLI(t, "eval", "--bench", b, "--memory", "fine-ledger", "--reader", "oracle", "--out", evalRows)
	torn := filepath.Join(dir, "torn.jsonl")
	data, _ := os.ReadFile(evalRows)
	os.WriteFile(torn, data[:40], 0o644)
	mustCLI(t, "eval", "--bench", b, "--memory", "fine-ledger", "--reader", "oracle", "--out", torn)
	if got, _ := os.ReadFile(torn); string(got) != string(data) {
		t.Errorf("a torn first row did not resume to the same rows")
	}
}

// Item 2: rejudge --fresh removed, trimmed and read --out before it took
// the lock, and the lock was on the old file, not the path: a second
// --fresh run beside the first was not refused, both exited 0, and the
// first's rows were lost. The second is refused, naming the first; the
// file holds every row once.
func TestRejudgeFreshTakesTheLock(t *testing.T) {
	b := smallBench(t)
	dir := t.TempDir()
	rows := filepath.Join(dir, "rows.jsonl")
	mustCLI(t, "eval", "--bench", b, "--memory", "fine-ledger,render-only,graphrag-abstain", "--reader", "oracle", "--out", rows)
	in := uniqueRows(t, rows)
	s := llmtest.New(llmtest.Options{Reply: func(llmtest.Request) string { return "CORRECT" }, Latency: 40 * time.Millisecond})
	defer s.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", s.BaseURL(), "ESR_LLM_MODELS", "m", "ESR_LLM_CONCURRENCY", "1")
	out := filepath.Join(dir, "rescored.jsonl")
	args := func(cache string) []string {
		return []string{"rejudge", "--rows", rows, "--bench", b, "--judge", "llm:m", "--out", out, "--fresh", "--cache", filepath.Join(dir, cache)}
	}
	first, _, firstErr := cliProcess(t, nil, args("cache-a")...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the first run asked nothing", func() bool { return s.Hits() > 0 })
	second, _, secondErr := cliProcess(t, nil, args("cache-b")...)
	err := second.Run()
	if err == nil {
		t.Errorf("a second rejudge --fresh on the same --out exited 0")
	} else if want := "pid " + strconv.Itoa(first.Process.Pid); !strings.Contains(secondErr.String(), want) {
		t.Errorf("the refusal does not name the first run (%s): %s", want, secondErr)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first run: %v: %s", err, firstErr)
	}
	got := uniqueRows(t, out)
	if len(got) != len(in) {
		t.Errorf("%d rows in --out after both runs, want the first run's %d", len(got), len(in))
	}
}

// Item 4: a rejudge resume ignored the judge: rejudge --judge exact-lenient,
// then the same --out with --judge exact-strict, exited 0 with every row
// still lenient. Rescored rows carry a fingerprint of the judge's
// configuration, the benchmark, the code and the row they rescore, and a
// resume over rows of another is refused, as esr eval's is.
func TestRejudgeResumeChecksTheJudge(t *testing.T) {
	b := smallBench(t)
	dir := t.TempDir()
	rows := filepath.Join(dir, "rows.jsonl")
	mustCLI(t, "eval", "--bench", b, "--memory", "fine-ledger,graphrag-abstain", "--reader", "oracle,scripted:naive", "--out", rows)
	out := filepath.Join(dir, "rescored.jsonl")
	mustCLI(t, "rejudge", "--rows", rows, "--bench", b, "--judge", "exact-lenient", "--out", out)
	mustCLI(t, "rejudge", "--rows", rows, "--bench", b, "--judge", "exact-lenient", "--out", out) // the same judge resumes
	_, errOut, code := runCLI(t, "rejudge", "--rows", rows, "--bench", b, "--judge", "exact-strict", "--out", out)
	if code == 0 {
		judges := map[string]int{}
		for _, r := range uniqueRows(t, out) {
			judges[r.Judge]++
		}
		t.Fatalf("a resume with another judge exited 0; rows by judge: %v", judges)
	}
	if !strings.Contains(errOut, "rescored.jsonl:1") || !strings.Contains(errOut, "--fresh") {
		t.Errorf("the refusal does not name the row and the way out: %s", errOut)
	}
	mustCLI(t, "rejudge", "--rows", rows, "--bench", b, "--judge", "exact-strict", "--out", out, "--fresh")
	for _, r := range uniqueRows(t, out) {
		if r.Judge != "exact-strict" {
			t.Fatalf("after --fresh a row is judged by %q", r.Judge)
		}
	}
}

// readDir reads every file of dir into a map (name → content).
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// Item 3: a bench folder was not written as a set: a second esr gen into
// the same folder that failed midway (a file-size limit) left new streams
// beside the old atoms and QAs. The set is written into a sibling folder
// and swapped in; a failure leaves the old set whole and nothing else.
func TestBenchFolderIsWrittenAsASet(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "X")
	mustCLI(t, "gen", "--seed", "1", "--per-stratum", "4", "--out", out)
	before := readDir(t, out)
	// streams.jsonl of seed 2 fits in 170,000 bytes, its atoms.jsonl does not.
	cmd, _, errb := cliProcess(t, []string{"ESRKIT_TEST_FSIZE=170000"}, "gen", "--seed", "2", "--per-stratum", "4", "--out", out)
	if err := cmd.Run(); err == nil {
		t.Fatal("esr gen under a 170,000-byte file limit exited 0")
	}
	after := readDir(t, out)
	for name, content := range before {
		if after[name] != content {
			t.Errorf("%s changed by the failed run (%d → %d bytes): the folder is a mix of two sets (%s)", name, len(content), len(after[name]), firstLine(errb.String()))
		}
	}
	if len(after) != len(before) {
		t.Errorf("files %d → %d", len(before), len(after))
	}
	if _, err := bench.Load(out); err != nil {
		t.Errorf("the folder no longer loads: %v", err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left beside the folder: %v", names)
	}
	// A successful run replaces the whole set.
	mustCLI(t, "gen", "--seed", "2", "--per-stratum", "4", "--out", out)
	if readDir(t, out)["streams.jsonl"] == before["streams.jsonl"] {
		t.Error("the second seed did not replace the set")
	}
	// A folder holding files that are not a benchmark's is not replaced.
	notes := filepath.Join(t.TempDir(), "notes")
	os.MkdirAll(notes, 0o755)
	os.WriteFile(filepath.Join(notes, "todo.txt"), []byte("keep me"), 0o644)
	if _, errOut, code := runCLI(t, "gen", "--seed", "1", "--per-stratum", "1", "--out", notes); code == 0 || !strings.Contains(errOut, "todo.txt") {
		t.Errorf("gen into a folder with other files: exit %d: %s", code, errOut)
	}
	if got := readDir(t, notes); len(got) != 1 || got["todo.txt"] != "keep me" {
		t.Errorf("the folder with other files was changed: %v", len(got))
	}
}

// hangingAdapter writes an adapter that answers a hello, then, on its
// first build request, records its pid and a child's and never answers.
func hangingAdapter(t *testing.T) (path, pidFile, childFile string) {
	t.Helper()
	dir := t.TempDir()
	path, pidFile, childFile = filepath.Join(dir, "hang.sh"), filepath.Join(dir, "pid"), filepath.Join(dir, "child")
	script := "#!/bin/sh\nread l\ncase \"$l\" in *'\"op\":\"hello\"'*) echo '{\"protocol\":\"esr-adapter/2\",\"id\":1,\"rows\":[]}'; read l;; esac\n" +
		"echo $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\n" +
		"sleep 300 &\necho $! > " + childFile + ".tmp && mv " + childFile + ".tmp " + childFile + "\nwait\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, pidFile, childFile
}

// pidIn waits for a pid in file.
func pidIn(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitFor(t, 10*time.Second, "no pid in "+file, func() bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	return pid
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// Item 13: on SIGTERM the adapter's process group kept running (esr died,
// the adapter and its child stayed); on SIGINT esr waited out the
// adapter's timeout, since the call in flight ignored the interrupt. Both
// now end the adapter's group at once; SIGINT stops the run within a
// second or two, saying it was interrupted.
func TestSignalsEndTheAdapter(t *testing.T) {
	b := smallBench(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			adapterPath, pidFile, childFile := hangingAdapter(t)
			cmd, _, errb := cliProcess(t, []string{"ESR_ADAPTER_TIMEOUT=30s"}, "eval", "--bench", b, "--memory", "exec:"+adapterPath,
				"--reader", "oracle", "--out", filepath.Join(t.TempDir(), "rows.jsonl"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid, child := pidIn(t, pidFile), pidIn(t, childFile)
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL); syscall.Kill(child, syscall.SIGKILL) })
			start := time.Now()
			cmd.Process.Signal(sig)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				if err == nil {
					t.Errorf("esr exited 0 after %s", sig)
				}
				if sig == syscall.SIGINT && !strings.Contains(errb.String(), "interrupt") {
					t.Errorf("after SIGINT esr does not say it was interrupted: %s", errb)
				}
			case <-time.After(8 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("esr still running 8 s after %s (the adapter's timeout is 30 s)", sig)
			}
			t.Logf("esr exited %s after %s", time.Since(start).Round(time.Millisecond), sig)
			waitFor(t, 3*time.Second, "the adapter or its child outlived esr", func() bool { return !running(pid) && !running(child) })
		})
	}
}

// Item 7: an adapter's fingerprint covered only the file exec: runs, so a
// wrapper (exec python3 impl.py) hid every change to impl.py from the
// resume check. The adapter names what it runs in its hello response (the
// reference adapter names its own file), and the fingerprint covers those
// files too: a resume after impl.py changed is refused, and the refusal
// says what the fingerprint covers.
func TestAdapterFingerprintCoversWhatItRuns(t *testing.T) {
	ref := refAdapter(t)
	b := smallBench(t)
	dir := t.TempDir()
	impl := filepath.Join(dir, "impl.py")
	src, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(impl, src, 0o644)
	wrapper := filepath.Join(dir, "wrapper.sh")
	os.WriteFile(wrapper, []byte("#!/bin/sh\nexec /usr/bin/python3 "+impl+"\n"), 0o755)
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	args := []string{"eval", "--bench", b, "--memory", "exec:" + wrapper, "--reader", "oracle", "--out", out}
	mustCLI(t, args...)
	mustCLI(t, args...) // unchanged: it resumes
	os.WriteFile(impl, append(src, []byte("\n# a change to the implementation\n")...), 0o644)
	_, errOut, code := runCLI(t, args...)
	if code == 0 {
		t.Fatal("a resume after the adapter's implementation changed exited 0")
	}
	if !strings.Contains(errOut, "another configuration") || !strings.Contains(errOut, "hello") {
		t.Errorf("the refusal does not say the adapter changed and what is covered: %s", errOut)
	}
}
