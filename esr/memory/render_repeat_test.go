package memory_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// The evaluation loop renders each memory once per question and hands the
// same text to every reader (eval's runStream): that is right only if a
// render depends on the state and the query alone, never on how often it
// was asked for. Every class and its render-matched control, rendered
// twice in a row and once more after other keys' renders (the
// dateless graphrag-abstain's seeded shuffle included), gives the same
// text.
func TestRenderIsTheSameEachTimeItIsAsked(t *testing.T) {
	b := benchtest.Mini(6)
	classes := append(append([]memory.Class{}, memory.Names...), memory.DeployedNames...)
	for _, c := range classes {
		for _, sp := range []memory.Spec{memory.SpecOf(c), {Class: c, Control: true}} {
			for _, s := range b.Streams {
				opt := memory.Options{}
				if c == memory.GraphRAGAbstain && len(s.ID)%2 == 0 {
					// the seeded shuffle of dateless facts
					opt = memory.Options{FactFormat: memory.FactsDateless, RenderSeed: 7}
				}
				st, err := memory.Build(sp, s, b.Atoms[s.ID], opt)
				if err != nil {
					t.Fatalf("%s: %v", sp, err)
				}
				var firsts []string
				for _, qa := range b.QAs {
					if qa.StreamID != s.ID {
						continue
					}
					key, _ := qa.Locate(b.Atoms[s.ID])
					q := qa.Query(key)
					first, again := st.Render(q), st.Render(q)
					if first != again {
						t.Fatalf("%s, %s: a second render differs from the first", sp, qa.QID)
					}
					firsts = append(firsts, first)
				}
				i := 0
				for _, qa := range b.QAs {
					if qa.StreamID != s.ID {
						continue
					}
					key, _ := qa.Locate(b.Atoms[s.ID])
					if st.Render(qa.Query(key)) != firsts[i] {
						t.Fatalf("%s, %s: the render changed after other questions' renders", sp, qa.QID)
					}
					i++
				}
			}
		}
	}
}
