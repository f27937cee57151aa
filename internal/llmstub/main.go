// Command llmstub serves the kit's local OpenAI-compatible test stub on a
// loopback address, with latency and injected faults, for trying the
// real-LLM recipe (esr run all, make llm-cache, make reproduce) without a
// model:
//
//	go run ./internal/llmstub -addr 127.0.0.1:8399 -faults 0.4 &
//	export ESR_LLM_BASE_URL=http://127.0.0.1:8399/v1 ESR_LLM_MODELS=stub-a,stub-b
//
// Every answer is ABSTAIN (or CORRECT for the judge template); faults are
// 429 (Retry-After 0.2 s), 500 and truncated JSON, on the first attempts
// of the requests they pick.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/esrkit/esrkit/internal/llm/llmtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8399", "loopback `HOST:PORT` to listen on")
	latency := flag.Duration("latency", 20*time.Millisecond, "delay before each answer")
	faults := flag.Float64("faults", 0, "share of requests that fail their first attempts (0..1)")
	times := flag.Int("fault-attempts", 2, "how many first attempts of a picked request fail")
	models := flag.String("models", "", "serve only these models (comma separated); others get 404")
	flag.Parse()
	opt := llmtest.Options{Latency: *latency, Usage: true, Reply: func(r llmtest.Request) string {
		if strings.Contains(r.User(), "Gold answer") || strings.Contains(r.User(), "gold answer") {
			return "CORRECT"
		}
		return "ABSTAIN"
	}}
	if *faults > 0 {
		opt.Fault = llmtest.Faults(*faults, *times, "0.2")
	}
	for _, m := range strings.Split(*models, ",") {
		if m = strings.TrimSpace(m); m != "" {
			opt.Models = append(opt.Models, m)
		}
	}
	s, err := llmtest.NewOn(*addr, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "llmstub:", err)
		os.Exit(1)
	}
	fmt.Println(s.BaseURL())
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	<-c
	s.Close()
	fmt.Fprintf(os.Stderr, "llmstub: served %d requests\n", s.Hits())
}
