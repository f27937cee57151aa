package main

import (
	"encoding/json"
	"io"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

func init() {
	register("readers", "list every reader as JSON lines (scripted and sim readers are simulations)", runReaders)
}

// runReaders prints one JSON object per reader: {name, kind, simulated,
// summary, capabilities}: the oracle, every scripted profile, every sim
// (stochastic simulated) profile with simulated=true, and one LLM
// reader per model of ESR_LLM_MODELS (or --models). Endpoint and key are
// never printed.
func runReaders(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("readers", stderr)
	models := fs.String("models", "", "LLM models to list, comma separated (default: "+llm.EnvModels+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cat := reader.Catalog(llm.Setup{Models: llm.SplitModels(*models)}, sim.Readers)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, info := range cat {
		if err := enc.Encode(info); err != nil {
			return err
		}
	}
	return nil
}
