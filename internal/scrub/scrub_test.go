package scrub_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/scrub"
	"github.com/esrkit/esrkit/internal/synth"
)

func TestTextKinds(t *testing.T) {
	sc := scrub.New([]string{"mkowalski", "Kestrel42", "a press report", "xy"})
	for _, c := range []struct{ in, want, kind string }{
		{"contact me at maria.g+test@example.co.uk please", "contact me at <EMAIL> please", scrub.KindEmail},
		{"key sk-proj-AbCdEf0123456789xyzXYZ leaked", "key <TOKEN> leaked", scrub.KindToken},
		{"token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token <TOKEN>", scrub.KindToken},
		{"HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345 set", "HF_TOKEN=<TOKEN> set", scrub.KindToken},
		{"sha 3f786850e387550fdab836ed7e6dc881de23001b", "sha <TOKEN>", scrub.KindToken},
		{"secret QWxhZGRpbjpvcGVuIHNlc2FtZQ9876543210abcdEFGH==", "secret <TOKEN>", scrub.KindToken},
		{"server 203.0.113.57 refused", "server <IP> refused", scrub.KindIP},
		{"ipv6 2001:db8::8a2e:370:7334 and fe80::1ff:fe23:4567:890a too", "ipv6 <IP> and <IP> too", scrub.KindIP},
		{"see https://github.com/mkowalski for details", "see https://github.com/<URL_PATH> for details", scrub.KindURLPath},
		{"gist.github.com/someuser/abc123", "gist.github.com/<URL_PATH>/abc123", scrub.KindURLPath},
		{`File "/home/alice/project/run.py"`, `File "/home/<URL_PATH>/project/run.py"`, scrub.KindURLPath},
		{`/Users/bob/Library/Logs`, `/Users/<URL_PATH>/Library/Logs`, scrub.KindURLPath},
		{`C:\Users\carol\AppData`, `C:\Users\<URL_PATH>\AppData`, scrub.KindURLPath},
		{"cc @octo-cat, thanks", "cc <HANDLE>, thanks", scrub.KindHandle},
		{"mkowalski said it works; Kestrel42 reverted", "<HANDLE> said it works; <HANDLE> reverted", scrub.KindName},
	} {
		counts := scrub.Counts{}
		got := sc.Text(c.in, counts)
		if got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if counts[c.kind] == 0 {
			t.Errorf("Text(%q): no %s counted (%v)", c.in, c.kind, counts)
		}
		if again := sc.Text(got, nil); again != got {
			t.Errorf("not idempotent: %q → %q", got, again)
		}
		if f := scrub.Find(got); f.Total() != 0 {
			t.Errorf("second pass over %q finds %v", got, f)
		}
	}
	// Things that must stay.
	for _, keep := range []string{
		"see https://github.com/esr-synth/fluxstore/issues/12", "std::vector<int> v;", "at 2024-03-01T10:00:00Z",
		"version v1.2.3.4 and 1.2.3.4.5", "a press report says so", "xy is short", "30 s", "use --no-cache on Linux",
		"https://en.wikipedia.org/wiki/Italy", "the word maintainer", "UTC+5:30",
	} {
		if got := sc.Text(keep, nil); got != keep {
			t.Errorf("Text(%q) changed it to %q", keep, got)
		}
	}
}

func seeded() *bench.Bench {
	alice, bob := "alice-dev", "203.0.113.9"
	s := &esr.Stream{ID: "s1", Title: "crash reported by @alice-dev", Events: []esr.Event{
		{ID: "e1", Kind: "comment", Timestamp: esr.MustTime("2024-01-01"), Actor: &alice,
			Text: "Traceback in /home/alice-dev/x.py; mail alice@example.org; token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
			Meta: map[string]any{"body_raw": "verbatim text", "quote": "q", "url": "https://github.com/alice-dev", "n": 3.0}},
		{ID: "e2", Kind: "revision", Timestamp: esr.MustTime("2024-02-01"), Actor: &bob,
			Text: "Reverted edits by 203.0.113.9; alice-dev owns this now"},
	}}
	atoms := map[string][]esr.Atom{"s1": {
		{ID: "a1", StreamID: "s1", EventID: "e1", Actor: &alice, Entity: "issue", Attribute: "assigned_owner", Value: "alice-dev", Polarity: esr.Positive},
		{ID: "a2", StreamID: "s1", EventID: "e2", Actor: &bob, Entity: "issue", Attribute: "assigned_owner", Value: "@alice-dev", Polarity: esr.Positive},
	}}
	qas := []esr.QA{{QID: "q1", StreamID: "s1", Question: "Who owns the issue of alice-dev?", GoldAnswer: "alice-dev",
		Phenomenon: esr.Monotonic, Aliases: []string{"@alice-dev"}}}
	return bench.New([]*esr.Stream{s}, atoms, qas)
}

func TestBenchSeeded(t *testing.T) {
	b := seeded()
	c := scrub.Bench(b, scrub.Options{})
	want := map[string]int{scrub.KindActor: 4, scrub.KindVerbatim: 2, scrub.KindEmail: 1, scrub.KindToken: 1,
		scrub.KindIP: 1, scrub.KindURLPath: 2, scrub.KindHandle: 3}
	for k, n := range want {
		if c[k] != n {
			t.Errorf("%s: %d replacements, want %d (all: %v)", k, c[k], n, c)
		}
	}
	if c[scrub.KindName] < 3 {
		t.Errorf("bare names: %d replacements, want ≥ 3 (%v)", c[scrub.KindName], c)
	}
	if r := scrub.Scan(b); r.Total() != 0 {
		t.Errorf("second pass finds %v", r)
	}
	e := b.Streams[0].Events
	if e[0].Actor != nil || e[1].Actor != nil || b.Atoms["s1"][0].Actor != nil {
		t.Error("actor fields kept")
	}
	if _, ok := e[0].Meta["body_raw"]; ok {
		t.Error("verbatim meta kept")
	}
	for _, s := range []string{e[0].Text, e[1].Text, b.Streams[0].Title, b.QAs[0].Question, b.QAs[0].GoldAnswer, b.Atoms["s1"][0].Value} {
		if strings.Contains(s, "alice") || strings.Contains(s, "203.0") {
			t.Errorf("personal data left in %q", s)
		}
	}
	if b.QAs[0].GoldAnswer != b.Atoms["s1"][0].Value {
		t.Errorf("gold %q and atom %q scrubbed differently", b.QAs[0].GoldAnswer, b.Atoms["s1"][0].Value)
	}

	b = seeded()
	scrub.Bench(b, scrub.Options{Pseudonymize: true})
	if a := b.Streams[0].Events[0].ActorName(); a != "actor-1" || b.Streams[0].Events[1].ActorName() != "actor-2" {
		t.Errorf("pseudonyms: %q, %q", a, b.Streams[0].Events[1].ActorName())
	}
}

// TestSyntheticRoundTrip: scrubbing a synthetic bench leaves nothing for a
// second pass and the output still loads.
func TestSyntheticRoundTrip(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	cfg := synth.DefaultConfig()
	cfg.PerStratum = 8
	if _, err := synth.Write(src, cfg); err != nil {
		t.Fatal(err)
	}
	rep, err := scrub.Dir(src, out, scrub.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Residual.Total() != 0 {
		t.Errorf("residual after scrub: %v", rep.Residual)
	}
	if rep.Replaced[scrub.KindActor] == 0 || rep.Replaced[scrub.KindHandle]+rep.Replaced[scrub.KindName] == 0 {
		t.Errorf("expected actor fields and handles in the synthetic bench: %v", rep.Replaced)
	}
	t.Logf("replaced %v", rep.Replaced)
}

// Tokens of GitLab, Stripe, npm, Docker Hub and Twilio are credentials
// too; text that only resembles them (an env variable's name, a prefix
// quoted in docs, a product code, one hex digit short) stays.
func TestTextServiceTokens(t *testing.T) {
	for _, in := range []string{
		"glpat-Ab3dEf6hIj9kLm2nOp5q",                        // GitLab personal access token
		"glpat-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4.01.0x1z2y3x", // GitLab's routable format
		"gldt-Zq7Wm2Xk9Vb4Nr6Ty1Pa",                         // GitLab deploy token
		"sk_live_51HqLyjWDarjtT1zdp7dcXyzAbC",               // Stripe secret key
		"rk_live_51HqLyjWDarjtT1zdp7dcXyzAbC",               // Stripe restricted key
		"sk_test_4eC39HqLyjWDarjtT1zdp7dc",                  // Stripe test key
		"npm_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ",          // npm access token
		"dckr_pat_2b3e36beeb386dfdaacb9b46004",              // Docker Hub personal access token
		"SK0123456789abcdef0123456789abcdef",                // Twilio API key SID
	} {
		for _, text := range []string{in, "export X=" + in + " # rotate", "(" + in + ")"} {
			counts := scrub.Counts{}
			got := scrub.New(nil).Text(text, counts)
			if strings.Contains(got, in) || !strings.Contains(got, scrub.Token) || counts[scrub.KindToken] != 1 {
				t.Errorf("Text(%q) = %q (%v), want the token replaced by %s once", text, got, counts, scrub.Token)
			}
			if f := scrub.Find(got); f.Total() != 0 {
				t.Errorf("second pass over %q finds %v", got, f)
			}
		}
	}
	for _, keep := range []string{
		"glpat-", "a glpat-xxxx placeholder", "sk_live_ keys start so", "see sk_live_...",
		"npm_config_registry=https://registry.npmjs.org/", "npm_package_version is set by npm run",
		"dckr_pat_ is Docker's prefix", "SKU 12345 and SK-1", "SK0123456789abcdef0123456789abcde is one short",
		"SKIPPED0123456789abcdef0123456789abcdef", "TASK0123456789abcdef0123456789abcdef",
		"the glpat token was revoked", "npm_token_here",
	} {
		if got := scrub.New(nil).Text(keep, nil); got != keep {
			t.Errorf("Text(%q) changed it to %q", keep, got)
		}
	}
}
