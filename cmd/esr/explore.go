package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

func init() {
	register("explore", "the render-confound explorer's view for one setting (SIMULATED sim: reader), and one question drilled", runExplore)
}

// runExplore prints what the 40-explorer notebook shows for one setting of
// its controls: the decomposition table (Markdown), its generated sentence
// and, with --question or --qid, that question's renders and every reader's
// answer (the sim reader and the scripted families).
func runExplore(args []string, stdout, stderr io.Writer) error {
	def := lab.DefaultSettings()
	var names []string
	for i, t := range lab.TermSets {
		names = append(names, fmt.Sprintf("%d = %s", i, t.Name))
	}
	fs := newFlags("explore", stderr)
	dir := fs.String("bench", "data/synthetic", "benchmark `DIR`")
	stratum := fs.String("stratum", def.Stratum, "a phenomenon or \"all\"")
	query := fs.String("query", string(def.QueryType), "query type: snapshot or provenance")
	terms := fs.String("terms", "0", "comparisons, by number or name: "+strings.Join(names, "; "))
	format := fs.String("format", def.Format, "ledger render format (compact, verbose, minimal, json)")
	rd := fs.String("reader", "sim:"+def.Reader.Name, "simulated reader `sim:PROFILE[@CAPABILITY=VALUE]...`, e.g. sim:careful@status=0.2")
	noise := fs.Float64("noise", 0, "relation-noise probability p")
	seed := fs.Uint64("seed", def.Seed, "seed of the reader's draws, the noise and the bootstrap")
	question := fs.Int("question", 0, "drill into the `N`th question of the stratum (1-based; 0: none)")
	qid := fs.String("qid", "", "drill into this question")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	s, err := def.WithReaderSpec(*rd)
	if err != nil {
		return err
	}
	ts, err := lab.TermSetNamed(*terms)
	if err != nil {
		return err
	}
	s.Stratum, s.QueryType, s.Terms, s.Format, s.NoiseP, s.Seed = *stratum, esr.QueryType(*query), ts.Name, *format, *noise, *seed
	ctx := context.Background()
	ex := lab.NewExplorer(b)
	v, err := ex.View(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, v.Table().Markdown())
	fmt.Fprintln(stdout, v.Sentence())
	if *question == 0 && *qid == "" {
		return nil
	}
	if *qid == "" {
		qids, err := ex.QIDs(s)
		if err != nil {
			return err
		}
		if *question < 1 || *question > len(qids) {
			return fmt.Errorf("--question %d: the stratum has questions 1 to %d", *question, len(qids))
		}
		*qid = qids[*question-1]
	}
	w, err := ex.Drill(ctx, s, *qid, sim.AllScripted()...)
	if err != nil {
		return err
	}
	q := w.QA
	fmt.Fprintf(stdout, "\n# Question %s (stream %s, %s %s): %q, gold %q\n", q.QID, q.StreamID, q.Phenomenon, q.Type(), q.Question, q.GoldAnswer)
	for i, m := range w.Memories {
		fmt.Fprintf(stdout, "\n## %s\n\n%s\n", m, w.Renders[i])
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, w.AnswersTable().Markdown())
	fmt.Fprintln(stdout, w.Arithmetic())
	return nil
}
