package nbhelp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/experiment"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// tryItem matches a numbered item of a "Try it" list.
var tryItem = regexp.MustCompile(`(?m)^(\d+)\. `)

// TestExercisesMatchNotebooks: every notebook's "Try it" list has one
// registered exercise per item, and the notebook shows their expected
// outcomes (nbhelp.Answers).
func TestExercisesMatchNotebooks(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".ipynb")
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type   string          `json:"cell_type"`
				Source json.RawMessage `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(raw, &nb); err != nil {
			t.Fatal(err)
		}
		items, shows := 0, false
		for _, c := range nb.Cells {
			src := sourceText(c.Source)
			if c.Type == "markdown" && strings.HasPrefix(strings.TrimSpace(src), "## Try it") {
				items += len(tryItem.FindAllString(src, -1))
			}
			if c.Type == "code" && strings.Contains(src, `nbhelp.Answers("`+name+`")`) {
				shows = true
			}
		}
		registered := 0
		for _, e := range Exercises {
			if e.Notebook == name {
				registered++
			}
		}
		if items != registered {
			t.Errorf("%s: %d Try-it items, %d registered exercises", name, items, registered)
		}
		if registered > 0 && !shows {
			t.Errorf("%s: does not show its exercises' expected outcomes (nbhelp.Answers(%q))", name, name)
		}
	}
}

// exerciseChecks run each exercise's change on the bundled data and
// return an error when its expected outcome does not hold.
var exerciseChecks = map[string]func(ctx context.Context, b *bench.Bench) error{
	"41-render-confound#1": func(ctx context.Context, b *bench.Bench) error {
		qa, err := experiment.PickWorked(b, esr.CrossSourceConflict, esr.Snapshot)
		if err != nil {
			return err
		}
		w, err := experiment.Work(ctx, b, qa, nil, Readers(), memory.Options{})
		if err != nil {
			return err
		}
		up := 0
		for ri := range w.Readers {
			a := w.Answers[ri]
			if a[0].Correct != a[1].Correct {
				return fmt.Errorf("%s changes at the render step", w.Readers[ri])
			}
			switch {
			case a[1].Correct && !a[2].Correct:
				return fmt.Errorf("%s turns wrong at the mechanism step", w.Readers[ri])
			case !a[1].Correct && a[2].Correct:
				up++
			}
		}
		if up == 0 {
			return fmt.Errorf("no verdict changes at the mechanism step")
		}
		return nil
	},
	"41-render-confound#2": func(ctx context.Context, b *bench.Bench) error {
		rows, err := experiment.Evaluate(ctx, b, experiment.EvalConfig{Memories: experiment.RenderConfoundMemories, Readers: Readers(),
			QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
		if err != nil {
			return err
		}
		for _, term := range experiment.Headline[:3] { // the paper's three
			pair, err1 := experiment.Compare(rows, term.Label, term.A, term.B, nil, experiment.StatOptions{B: 2000, Seed: 1, Interval: experiment.IntervalPair})
			clu, err2 := experiment.Compare(rows, term.Label, term.A, term.B, nil, experiment.StatOptions{B: 2000, Seed: 1, Interval: experiment.IntervalCluster})
			if err1 != nil || err2 != nil {
				return fmt.Errorf("%s: %v %v", term.Label, err1, err2)
			}
			if clu.Hi-clu.Lo <= pair.Hi-pair.Lo {
				return fmt.Errorf("%s: clustered interval %.3f not wider than the pair interval %.3f", term.Label, clu.Hi-clu.Lo, pair.Hi-pair.Lo)
			}
		}
		return nil
	},
	"41-render-confound#3": func(ctx context.Context, b *bench.Bench) error {
		mech := map[[2]bool]float64{}
		for _, sorts := range []bool{false, true} {
			for _, status := range []bool{false, true} {
				r, err := reader.NewScriptedWith("mine", reader.Capabilities{SortsByTime: sorts, UsesStatus: status, OnConflict: reader.ConflictAbstain})
				if err != nil {
					return err
				}
				rows, err := experiment.Evaluate(ctx, b, experiment.EvalConfig{Memories: []string{memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger},
					Readers: []reader.Reader{r}, QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
				if err != nil {
					return err
				}
				cs, err := experiment.CompareTerms(rows, experiment.RenderMatched[:2], nil, experiment.StatOptions{B: 200, Seed: 1})
				if err != nil || len(cs) != 2 {
					return fmt.Errorf("terms: %v", err)
				}
				if cs[0].Delta != 0 {
					return fmt.Errorf("sorts=%v status=%v: render term %+.3f", sorts, status, cs[0].Delta)
				}
				mech[[2]bool{sorts, status}] = cs[1].Delta
			}
		}
		if mech[[2]bool{false, false}] != 0 || mech[[2]bool{true, false}] != 0 {
			return fmt.Errorf("the mechanism term moves without the status column: %v", mech)
		}
		if !(mech[[2]bool{false, true}] > mech[[2]bool{true, true}] && mech[[2]bool{true, true}] > 0) {
			return fmt.Errorf("mechanism term with the status column: %v", mech)
		}
		return nil
	},
}

// TestExercises checks every exercise's expected outcome on the bundled
// data, by running the change the exercise asks for.
func TestExercises(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every exercise on the bundled bench")
	}
	b, err := bench.Load("../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	for _, e := range Exercises {
		id := fmt.Sprintf("%s#%d", e.Notebook, e.N)
		check, ok := exerciseChecks[id]
		if !ok {
			t.Errorf("exercise %s has no check", id)
			continue
		}
		once.Do(func() {})
		t.Run(id, func(t *testing.T) {
			if err := check(context.Background(), b); err != nil {
				t.Errorf("expected outcome %q does not hold: %v", e.Expect, err)
			}
		})
	}
}
