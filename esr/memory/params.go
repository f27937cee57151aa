package memory

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/internal/upstream"
)

// A class name may carry the assumptions the class is built under as
// parameters:
//
//	NAME[@KEY=VALUE]...[~render-only]
//
// for example graphiti@paraphrase=0.3, mem0-v3@paraphrase=0.3@dedup-k=10@created-at=event,
// and graphiti@paraphrase=0.3~render-only, the render-matched control of
// graphiti@paraphrase=0.3 (the same parameters, the same paraphrase draws,
// the mechanism off). A parameter left out takes its default (ClassParams);
// a parameter the class does not take, a value out of range or a parameter
// given twice is an error naming it. The deployed classes (DeployedNames)
// take the parameters of deployedParams; graphrag-abstain takes one, kept=,
// whose value is the rest of the name (a whole class name, parameters and
// suffix included): graphrag-abstain@kept=graphiti@paraphrase=0.3~render-only
// is the d-blind baseline over the atoms that control kept (ContentMatched).
// exec: names take no parameters: their path is taken as written.
//
// Inside the library a name is a Spec (spec.go): ParseSpec is the
// grammar's one parser and Spec.String its printer. A name is parsed once,
// where it enters (ParseNames, ParseSpec, a row file); Build takes the
// spec.

// paramSep separates a class name from its parameters and one parameter
// from the next.
const paramSep = "@"

// Parameter keys.
const (
	ParamParaphrase = "paraphrase"
	paramDup        = "dup"
	ParamDedupK     = "dedup-k"
	ParamCreatedAt  = "created-at"
	paramSkip       = "skip"
	paramSeed       = "seed"
	paramKept       = "kept"
)

// Values of created-at (deployedParams.CreatedAt).
const (
	CreatedAtEvent     = "event"
	CreatedAtIngestion = "ingestion"
)

// param is one KEY=VALUE of a class name.
type param struct{ Key, Value string }

// nameParts is a class name split by its syntax.
type nameParts struct {
	Base    string  // the class without parameters or control suffix
	Params  []param // in the order written
	Control bool    // the name ends in ControlSuffix (and no kept= holds it)
}

// Param returns the value of key and whether the name sets it.
func (c nameParts) Param(key string) (string, bool) {
	for _, p := range c.Params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// splitName splits name into its base, parameters and control suffix.
// It checks the syntax only (every parameter KEY=VALUE, no key twice, no
// parameter after the suffix); which keys a class takes ParseSpec checks.
// exec: names are returned whole, with no parameters.
func splitName(name string) (nameParts, error) {
	if strings.HasPrefix(name, ExecPrefix) {
		base, control := strings.CutSuffix(name, ControlSuffix)
		return nameParts{Base: base, Control: control}, nil
	}
	base, rest, has := strings.Cut(name, paramSep)
	if !has {
		base, control := strings.CutSuffix(name, ControlSuffix)
		return nameParts{Base: base, Control: control}, nil
	}
	if strings.Contains(base, ControlSuffix) {
		return nameParts{}, fmt.Errorf("memory class %q: parameters go before %s", name, ControlSuffix)
	}
	if rest == "" { // "graphiti@" is not a class of its own
		return nameParts{}, fmt.Errorf("memory class %q: empty parameter after %s", name, paramSep)
	}
	c := nameParts{Base: base}
	for rest != "" {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.Contains(key, paramSep) {
			return nameParts{}, fmt.Errorf("memory class %q: parameter %q is not KEY=VALUE", name, strings.SplitN(rest, paramSep, 2)[0])
		}
		if _, dup := c.Param(key); dup {
			return nameParts{}, fmt.Errorf("memory class %q: parameter %s given twice", name, key)
		}
		if key == paramKept { // the rest of the name is a class name
			if after == "" {
				return nameParts{}, fmt.Errorf("memory class %q: parameter kept has no class name", name)
			}
			c.Params = append(c.Params, param{key, after})
			break
		}
		val, next, more := strings.Cut(after, paramSep)
		if !more {
			val, c.Control = strings.CutSuffix(val, ControlSuffix)
		}
		if val == "" {
			return nameParts{}, fmt.Errorf("memory class %q: parameter %s has no value", name, key)
		}
		c.Params = append(c.Params, param{key, val})
		rest = next
		if more && rest == "" {
			return nameParts{}, fmt.Errorf("memory class %q: empty parameter after %s", name, paramSep)
		}
	}
	return c, nil
}

// ParamDoc documents one parameter of a class.
type ParamDoc struct {
	Key     string
	Default string
	Meaning string
}

// graphitiParams and mem0Params are the parameters of the deployed classes,
// with their defaults (see deployedParams for what each assumes and why).
var (
	graphitiParams = []ParamDoc{
		{ParamParaphrase, "0.5", "probability per episode that the extractor writes the fact text differently from the template ENTITY ATTRIBUTE is VALUE"},
		{paramDup, "1", "probability that the LLM duplicate judgement (dedupe_edges.resolve_edge) calls a restated value's fact a duplicate of that value's existing edge, closed or not (Graphiti #1865)"},
		{paramSeed, "Options.RenderSeed", "seed of the per-(stream, atom) draws"},
	}
	mem0Params = []ParamDoc{
		{ParamParaphrase, "0.5", "probability per episode that the extractor writes the memory text differently from the template ENTITY ATTRIBUTE is VALUE"},
		{ParamDedupK, "10", "hash dedup compares a new memory with the top-k memories retrieved for the episode (Phase 1, top_k=10); all = every stored memory"},
		{ParamCreatedAt, CreatedAtIngestion, "created_at is the episode's time (event: the integrator passes it in metadata) or the replay clock at ingestion (ingestion: Mem0 OSS's default, datetime.now())"},
		{paramSkip, "0", "probability that the extraction LLM skips a fact semantically equivalent to a retrieved memory (ADDITIVE_EXTRACTION_PROMPT; \"when in doubt, extract\")"},
		{paramSeed, "Options.RenderSeed", "seed of the per-(stream, atom) draws"},
	}
	keptParams = []ParamDoc{
		{paramKept, "", "graphrag-abstain over the atoms the named class kept (memory.KeptAtoms); the value is the rest of the name"},
	}
)

// ClassParams lists the parameters class base takes, with their defaults
// and meaning, or nil for a class that takes none.
func ClassParams(base Class) []ParamDoc {
	switch base {
	case Graphiti, GraphitiCurrent:
		return graphitiParams
	case Mem0V3, Mem0Update:
		return mem0Params
	case GraphRAGAbstain:
		return keptParams
	}
	return nil
}

// deployedParams are the assumptions a deployed class is built under. Each
// stands for a step that upstream an LLM or the integrator decides and the
// kit must assume:
//
//   - Paraphrase (all four; default 0.5): upstream the fact (Graphiti) or
//     memory (Mem0) text is written by the LLM per episode, so a value that
//     returns is not always written as before. With probability Paraphrase
//     an episode's text uses one of the paraphrase wordings (FactWordings)
//     instead of the template, drawn per (seed, stream, atom). No
//     measurement of the rate exists; 0.5 is the midpoint, and notebook 45
//     sweeps 0…1. Paraphrase 0 is the kit's earlier fixed template.
//   - Dup (graphiti, graphiti-current; default 1): when the text differs,
//     resolve_extracted_edge asks the LLM whether the new fact duplicates
//     an existing fact between the same nodes; a duplicate reuses that edge,
//     closed or not, and leaves its window as it was (the same failure as
//     the exact-text fast path: Graphiti issue #1865). The prompt defines a
//     duplicate as "identical factual information" and shows no dates, so
//     the default assumes the LLM follows it. With Dup = 1 the fast path and
//     the LLM path agree and the reverted-revert result does not depend on
//     Paraphrase; Dup is the assumption that drives it.
//   - DedupK (mem0-*; default 10): Mem0 v3 hashes a new memory against the
//     top_k=10 memories retrieved for the episode (Phase 1 of
//     _add_to_vector_store), not against the whole store; the kit retrieves
//     them by BM25 of the episode text against the memory texts. -1 (all)
//     compares with every memory, the kit's earlier rule. Hash dedup fires
//     only when the texts are equal, so Paraphrase drives mem0-v3's
//     reverted-revert result.
//   - CreatedAt (mem0-*; default ingestion): Mem0 OSS sets created_at to
//     datetime.now() unless the caller's metadata carries one. ingestion
//     replays the stream as a back-fill: episode n in transaction order gets
//     IngestionEpoch + n seconds (the order survives, the dates do not);
//     event takes the episode's own time.
//   - Skip (mem0-*; default 0): the additive extraction prompt tells the LLM
//     to skip a fact semantically equivalent to a retrieved memory "with no
//     meaningful new context", and also "when in doubt, extract"; the
//     default assumes a returning value is new context.
//   - Seed: the draws' seed; Options.RenderSeed unless the name sets seed=.
type deployedParams struct {
	Paraphrase float64
	Dup        float64
	DedupK     int
	CreatedAt  string
	Skip       float64
	Seed       uint64
	seedSet    bool
}

// dedupAll is deployedParams.DedupK for "every stored memory".
const dedupAll = upstream.DedupAll

// defaultDeployedParams are the defaults of ClassParams.
func defaultDeployedParams() deployedParams {
	return deployedParams{Paraphrase: 0.5, Dup: 1, DedupK: 10, CreatedAt: CreatedAtIngestion, Skip: 0}
}

func takes(docs []ParamDoc, key string) bool {
	for _, d := range docs {
		if d.Key == key {
			return true
		}
	}
	return false
}

func paramKeys(docs []ParamDoc) string {
	keys := make([]string, len(docs))
	for i, d := range docs {
		keys[i] = d.Key
	}
	return strings.Join(keys, ", ")
}

// seed is the draws' seed: seed= when the name sets it, else opt.RenderSeed.
func (dp deployedParams) seed(opt Options) uint64 {
	if dp.seedSet {
		return dp.Seed
	}
	return opt.RenderSeed
}

// checkSpec reports what ParseSpec cannot see in a parsed name
// (ParseNames' check): a kept class that does not exist or does not report
// the atoms it kept.
func checkSpec(sp Spec) error {
	if sp.Params.Kept.IsZero() {
		return nil
	}
	k := sp.Params.Kept.Spec()
	if !known(k) {
		return fmt.Errorf("memory class %q: kept: %w", sp, unknownClass(k.String()))
	}
	if slices.Contains(Names, k.Class) {
		return fmt.Errorf("memory class %q: kept: %s does not report the atoms it kept (memory.KeptAtoms)", sp, k)
	}
	return nil
}

func (dp deployedParams) value(key string, opt Options) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch key {
	case ParamParaphrase:
		return f(dp.Paraphrase)
	case paramDup:
		return f(dp.Dup)
	case paramSkip:
		return f(dp.Skip)
	case ParamDedupK:
		if dp.DedupK == dedupAll {
			return "all"
		}
		return strconv.Itoa(dp.DedupK)
	case ParamCreatedAt:
		return dp.CreatedAt
	case paramSeed:
		return strconv.FormatUint(dp.seed(opt), 10)
	}
	return ""
}
