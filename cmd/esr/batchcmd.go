package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("batch", "the batch route: export uncached LLM requests (OpenAI Batch API / vllm run-batch format), import the results into the cache", runBatch)
	register("cache", "move LLM response caches between machines: export or import a result pack (with a manifest)", runCacheCmd)
}

func runBatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "export" && args[0] != "import") {
		return fmt.Errorf("usage: esr batch export [esr eval's selection flags | --notebooks] --out requests.jsonl\n       esr batch import --results results.jsonl --requests requests.jsonl [--cache DIR]")
	}
	if args[0] == "import" {
		return runBatchImport(args[1:], stdout, stderr)
	}
	fs := newFlags("batch export", stderr)
	sel := addSelection(fs)
	out := fs.String("out", "", "requests JSONL `FILE` to write, OpenAI Batch API input format (required)")
	nb := fs.Bool("notebooks", false, "export what `esr run all` would send (the notebooks' experiments over --data) instead of one selection")
	data := fs.String("data", "data", "with --notebooks: `DIR` holding the bundled benchmarks")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	data2 := ""
	if *nb {
		data2 = *data
	}
	if err := checkFile("--out", *out, "esr batch export", isRequests, input("--bench", *sel.dir), input("--data", data2)); err != nil {
		return err
	}
	ctx := context.Background()
	plan := llm.NewPlan()
	judgeLLM := false
	if *nb {
		spec := *sel.readers
		if spec == "oracle" { // the flag's default: the notebooks' families
			spec = "default"
		}
		rs, err := parseReaders(spec, *sel.cache, nil, true)
		if err != nil {
			return err
		}
		defer closeReaders(rs)
		p, err := planSteps(ctx, *data, lab.RunAllSteps(*data), rs)
		if err != nil {
			return err
		}
		plan = p
	} else {
		bt, err := sel.build(true, nil, stderr)
		if err != nil {
			return err
		}
		defer bt.close()
		defer memory.CloseAdapters() // exec: adapters
		judgeLLM = isLLMJudge(bt.cfg.Judge)
		if err := eval.Run(llm.WithPlan(ctx, plan), bt.bench, bt.cfg, discard{}); err != nil {
			return err
		}
	}
	// Written to a temporary file and renamed: a failed export leaves the
	// previous file whole.
	if err := safefile.Write(*out, 0o644, func(w io.Writer) error { return llm.WriteBatch(w, plan.Pending()) }); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %d requests to %s (%d already cached)\n", plan.ToSend(), *out, planSummary(plan, judgeLLM).Cached)
	return printPlan(stdout, plan, judgeLLM)
}

func runBatchImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("batch import", stderr)
	results := fs.String("results", "", "Batch API output JSONL `FILE` (custom_id, response.status_code, response.body, error) (required)")
	requests := fs.String("requests", "", "the requests `FILE` `esr batch export` wrote, that the results answer: every line is checked against it (required)")
	cache := fs.String("cache", defaultCache, "response cache `DIR` to import into")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *results == "" || *requests == "" {
		return fmt.Errorf("--results and --requests are required (--requests: the file esr batch export wrote; every result is checked against it)")
	}
	c, err := llm.OpenCache(*cache)
	if err != nil {
		return err
	}
	defer c.Close()
	env := llm.Env{}
	ms, _ := env.Models()
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	if j, _ := env.JudgeModel(); j != "" {
		names = append(names, j)
	}
	rep, err := llm.ImportBatch(*results, *requests, c, env.Keys(names)...)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	if len(rep.Failed) > 0 {
		fmt.Fprintf(stderr, "%d requests failed and were left uncached; export again to retry them\n", len(rep.Failed))
	}
	if len(rep.Invalid) > 0 {
		return fmt.Errorf("%d invalid lines in %s (first: %s)", len(rep.Invalid), *results, rep.Invalid[0])
	}
	return nil
}

func runCacheCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "export" && args[0] != "import") {
		return fmt.Errorf("usage: esr cache export --out FILE [--cache DIR] [--models LIST]\n       esr cache import FILE [--cache DIR]")
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if args[0] == "export" {
		fs := newFlags("cache export", stderr)
		out := fs.String("out", "", "result pack `FILE` to write (gzip JSONL with a manifest; required)")
		cache := fs.String("cache", defaultCache, "response cache `DIR` to export")
		models := fs.String("models", "", "export only these models' answers (comma separated; default all)")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if err := requireFlags(fs, "out"); err != nil {
			return err
		}
		if _, err := os.Stat(*cache); err != nil {
			return fmt.Errorf("cache %s: %w", *cache, err)
		}
		if err := checkFile("--out", *out, "esr cache export", isPack, input("--cache", *cache)); err != nil {
			return err
		}
		c, err := llm.OpenCache(*cache)
		if err != nil {
			return err
		}
		defer c.Close()
		var keep func(string, llm.Entry) bool
		if ms := llm.SplitModels(*models); len(ms) > 0 {
			keep = func(_ string, e llm.Entry) bool {
				for _, m := range ms {
					if e.Model == m {
						return true
					}
				}
				return false
			}
		}
		var m llm.PackManifest
		if err := safefile.Write(*out, 0o644, func(w io.Writer) (err error) {
			m, err = llm.ExportPack(w, c, keep)
			return err
		}); err != nil {
			return err
		}
		return enc.Encode(m)
	}
	// esr cache import FILE [--cache DIR]: the file may come before or after the flags.
	fs := newFlags("cache import", stderr)
	cache := fs.String("cache", defaultCache, "response cache `DIR` to import into")
	rest := args[1:]
	var file string
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		file, rest = rest[0], rest[1:]
	}
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	}
	if file == "" {
		return fmt.Errorf("name the pack: esr cache import FILE [--cache DIR]")
	}
	c, err := llm.OpenCache(*cache)
	if err != nil {
		return err
	}
	defer c.Close()
	rep, err := llm.ImportPack(file, c)
	if err != nil {
		return err
	}
	return enc.Encode(rep)
}
