// Command llmstub serves the kit's local OpenAI-compatible test stub on a
// loopback address, with latency and injected faults, for trying the
// real-LLM recipe (esr run all, make llm-cache, make reproduce) without a
// model:
//
//	go run ./internal/llmstub -addr 127.0.0.1:8399 -faults 0.4 &
//	export ESR_LLM_BASE_URL=http://127.0.0.1:8399/v1 ESR_LLM_MODELS=stub-a,stub-b
//
// Every answer is ABSTAIN; a judge prompt is answered by the -judge-rule:
// "accept" (the default: CORRECT, or yes when the prompt asks for yes or
// no) or "substring" (correct iff the candidate contains the gold,
// case-folded: llmtest.SubstringJudge). Neither is a model: an audit of an
// LLM judge against the stub measures the rule and the template's reply
// parsing. Faults are 429 (Retry-After 0.2 s), 500 and truncated JSON, on
// the first attempts of the requests they pick.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/esrkit/esrkit/internal/llmtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8399", "loopback `HOST:PORT` to listen on")
	latency := flag.Duration("latency", 20*time.Millisecond, "delay before each answer")
	faults := flag.Float64("faults", 0, "share of requests that fail their first attempts (0..1)")
	times := flag.Int("fault-attempts", 2, "how many first attempts of a picked request fail")
	models := flag.String("models", "", "serve only these models (comma separated); others get 404")
	rule := flag.String("judge-rule", "accept", "how judge prompts are answered: accept (every answer) or substring (the candidate contains the gold)")
	flag.Parse()
	judgeReply := llmtest.AcceptingJudge
	switch *rule {
	case "accept":
	case "substring":
		judgeReply = llmtest.SubstringJudge
	default:
		fmt.Fprintf(os.Stderr, "llmstub: -judge-rule %q is not accept or substring\n", *rule)
		os.Exit(2)
	}
	opt := llmtest.Options{Latency: *latency, Usage: true, Reply: func(r llmtest.Request) string {
		if reply, ok := judgeReply(r); ok {
			return reply
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
