package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/layout"
)

// This file holds the measurement models of the evidence registry: for
// each published point (evidence.json), a generator of hand-built renders
// that reproduce the regime the source measured in, and the simulated
// reader's expected accuracy on them (Branches, the same expectation the
// reader's draws follow, so a fit and a run cannot disagree). The stage-1
// fit (stage1.go), the envelope suite (envelope.go) and the figures
// (evidencefig.go) all read these, and nothing else, to set a family's
// model beside the registry.
//
// The renders are written here by hand, never by the memory classes, so
// they test the reader model alone. A regime the model cannot represent
// (a single-record lookup in a structured serialisation: the model has no
// act for finding one row) is kept with its reason and never fitted.

// Measurement roles: how a point enters the stage-1 fit and the envelope.
const (
	// roleLevel: the point's value is compared with the model's expected
	// accuracy on the point's render (in logit for the fit).
	roleLevel = "level"
	// roleShape: the point's drop from its series' anchor (the series'
	// shortest, fewest-distractor point) is compared with the model's drop
	// between the two renders; the level belongs to another task.
	roleShape = "shape"
	// roleNone: the regime is not represented by the model; the point is
	// shown with its reason, never fitted.
	roleNone = "not modelled"
)

// Measurement is one registry point's regime as renders, with how it
// enters the fit.
type Measurement struct {
	Point EvidencePoint
	// Regime describes the renders in one line.
	Regime string
	// Role is roleLevel, roleShape or roleNone; Anchor is the id of the
	// point a shape is measured from.
	Role, Anchor string
	// Value is the published value as a proportion.
	Value float64
	// Weight is the point's weight in a family's stage-1 fit (0: shown, not
	// fitted), and WeightWhy says what set it.
	Weight    float64
	WeightWhy string
	// Reason says why a roleNone point is not modelled.
	Reason string
	// renders are the point's renders, each scored (x correct); the
	// model's value is their mean.
	renders []*scoredBranches
}

// Predict is the model's expected accuracy on the point's renders under p.
func (m *Measurement) Predict(p Profile) float64 {
	if len(m.renders) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, r := range m.renders {
		x, _ := r.expect(p)
		s += x
	}
	return s / float64(len(m.renders))
}

// InFrame is the model's value for m's point in the point's own frame,
// under p: for a level, its expected accuracy on the point's renders; for
// a shape, the published anchor's value moved by the model's logit drop
// from the anchor's renders to the point's, σ(logit(v_anchor) +
// logit(model) − logit(model_anchor)) (values clipped as in the fit), so
// the model's curve is read at the source's level. ok is false for a
// point not modelled or a shape whose anchor is not in byID.
func (m *Measurement) InFrame(p Profile, byID map[string]*Measurement) (float64, bool) {
	switch m.Role {
	case roleLevel:
		return m.Predict(p), true
	case roleShape:
		a, ok := byID[m.Anchor]
		if !ok {
			return 0, false
		}
		return logistic(clippedLogit(a.Value) + clippedLogit(m.Predict(p)) - clippedLogit(a.Predict(p))), true
	}
	return 0, false
}

// panelStructure is the structure of every calibrated reader (the
// branches a decision can take depend on it, never on its
// probabilities): it reads raw text with a prose skill and sees conflicts
// with a conflict skill. Branches enumerated with it are weighed by any
// calibrated profile.
var panelStructure = Profile{ProseSkill: 0.5, ConflictSkill: Skill(0.5)}

// scoreInput enumerates the branches of a calibrated reader on in and
// flags each (correct against gold, abstained). gold esr.AbstainText
// ("ABSTAIN") is right iff the reader abstains.
func scoreInput(in reader.Input, gold string) *scoredBranches {
	sb := &scoredBranches{feat: Features(in)}
	for _, b := range Branches(panelStructure, in, true) {
		ok := judge.Exact{}.Decide(gold, nil, b.Answer).Correct
		sb.branches = append(sb.branches, scoredBranch{b: b, x: ok, y: b.Answer.Abstain})
	}
	return sb
}

// measureQuestion is the question every measurement render asks, about
// the key measureKey.
const measureQuestion = "What is the current request timeout of the service?"

// fillerWords make the filler paragraphs: text about nothing a question
// asks, standing in for a haystack's essays or a chat's chatter.
var fillerWords = strings.Fields("the archive notes describe harbour mill weather valley spring road bridge market river " +
	"orchard council winter ledger lantern meadow quarry ferry chapel granary festival tide hill school garden well path " +
	"evening morning traveller baker miller shepherd painter letter journey story season harvest")

// fillerParagraph is the i-th filler paragraph, about lineTokens tokens.
func fillerParagraph(i, lineTokens int) string {
	var b strings.Builder
	for w := 0; reader.CountTokens(b.String()) < lineTokens; w++ {
		if w > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fillerWords[(i*7+w*3)%len(fillerWords)])
		if w%12 == 11 {
			b.WriteByte('.')
		}
	}
	return b.String() + "."
}

// rawLine is one line of a hand-built log: "[id stamp] text".
type rawLine struct {
	id, stamp, text string
	stated          []string
}

// rawInput writes lines as raw event text (in the given order) and the
// question's Input, with Stated from the lines that state the key.
func rawInput(lines []rawLine, question string) reader.Input {
	var b strings.Builder
	stated := map[string][]string{}
	for _, l := range lines {
		fmt.Fprintf(&b, "%s%s %s%s %s\n", layout.EventOpen, l.id, l.stamp, layout.EventClose, l.text)
		if len(l.stated) > 0 {
			stated[l.id] = l.stated
		}
	}
	return reader.Input{QID: "measure", Question: question, QueryType: esr.Snapshot, Context: b.String(), MayAbstain: true, Stated: stated}
}

// needleRender is a haystack of filler paragraphs of lineTokens tokens,
// undated, until the text has about tokens tokens, with one line in the
// middle stating the key's value (RULER's and NoLiMa's needle, HELMET's
// recall, a passage's answer sentence) and otherKeys lines stating other
// keys' values (RULER's distractor needles), spread through it.
//
// A paraphrased needle states the value without a word of the question
// (NoLiMa's needles by construction, a reading-comprehension passage's
// answer sentence).
func needleRender(tokens, lineTokens, otherKeys int, paraphrase bool) (reader.Input, string) {
	needle := rawLine{id: "n1", stamp: esr.UnknownTime, text: "The request timeout of the service is 45 s.", stated: []string{"45 s"}}
	if paraphrase {
		needle.text = "Calls are dropped after waiting 45 s."
	}
	n := max(0, (tokens-reader.CountTokens(needle.text))/max(1, lineTokens+4))
	var lines []rawLine
	for i := 0; i < n; i++ {
		lines = append(lines, rawLine{id: fmt.Sprintf("p%d", i+1), stamp: esr.UnknownTime, text: fillerParagraph(i, lineTokens)})
	}
	lines = append(lines[:n/2], append([]rawLine{needle}, lines[n/2:]...)...)
	for k := 0; k < otherKeys; k++ {
		at := (k + 1) * len(lines) / (otherKeys + 1)
		other := rawLine{id: fmt.Sprintf("k%d", k+1), stamp: esr.UnknownTime, text: fmt.Sprintf("The retry limit of worker %d is %d.", k+1, 3+k)}
		lines = append(lines[:at], append([]rawLine{other}, lines[at:]...)...)
	}
	return rawInput(lines, measureQuestion), "45 s"
}

// updatesRender is PI-LLM's regime: keys keys, each updated n times, the
// updates interleaved in a seeded random order and undated, one line
// "key_K: value" each; the question asks key_07's current value, the last
// one written.
func updatesRender(n, keys int, seed uint64) (reader.Input, string) {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	var order []int
	for k := 0; k < keys; k++ {
		for j := 0; j < n; j++ {
			order = append(order, k)
		}
	}
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	count := make([]int, keys)
	var lines []rawLine
	gold := ""
	for i, k := range order {
		v := fmt.Sprintf("%d", 1000+97*k+13*count[k])
		count[k]++
		l := rawLine{id: fmt.Sprintf("u%d", i+1), stamp: esr.UnknownTime, text: fmt.Sprintf("key_%02d: %s", k, v)}
		if k == 7 {
			l.stated = []string{v}
			gold = v
		}
		lines = append(lines, l)
	}
	return rawInput(lines, "What is the current value of key_07?"), gold
}

// sourcesRender is FaithEval's inconsistent context: two sources side by
// side state different values for the key, with nothing that orders or
// retracts either (a fact list without dates), among other keys' rows
// until the text has about tokens tokens; the right answer is to abstain.
func sourcesRender(tokens int) (reader.Input, string) {
	var b strings.Builder
	b.WriteString("-----Facts-----\nid|entity|attribute|value\n")
	b.WriteString("doc1|service|request_timeout|30 s\n")
	var rest []string
	for i := 0; ; i++ {
		all := b.String() + strings.Join(rest, "") + "doc2|service|request_timeout|45 s\n"
		if reader.CountTokens(all) >= tokens || i > 500 {
			return reader.Input{QID: "measure", Question: measureQuestion, QueryType: esr.Snapshot, Context: all, MayAbstain: true}, esr.AbstainText
		}
		rest = append(rest, fmt.Sprintf("doc%d|worker %d|retry_limit|%d\n", i+3, i+1, 3+i%5))
	}
}

// paraphrased are the sources whose needle or answer shares no word with
// the question: NoLiMa by construction ("no literal match"), FaithEval's
// reading-comprehension questions over a passage.
var paraphrased = map[string]bool{"nolima": true, "faitheval-ic": true}

// levelAnchored are the sources whose shortest point is also a level for a
// literal lookup: RULER's README (a 13-task average at 4K, a lower bound
// for one needle), its single-needle NIAH, HELMET's synthetic recall and
// RULER issue #100's single needle; their other points are shapes from it.
// BABILong (reasoning over the facts), NoLiMa's curve (its level is the
// base score's) and Lost in the Middle (a 2023 13B model, shape only) give
// shapes alone.
var levelAnchored = map[string]bool{"ruler": true, "ruler-appx": true, "helmet": true, "ruler-issue100": true}

// The measurement models' fixed sizes, stated once.
const (
	// maxNeedleTokens is the longest needle render: beyond 32K the
	// registry's curves measure where context windows end.
	maxNeedleTokens = 32000
	// haystackLineTokens is a haystack paragraph's length: RULER's and
	// NoLiMa's haystacks are essays and books, read in paragraphs.
	haystackLineTokens = 100
	// documentTokens is one retrieved document of Lost in the Middle
	// (NaturalQuestions passages of at most 100 words).
	documentTokens = 130
	// passageTokens is a FaithEval context: one passage (original) or two
	// (inconsistent), a few hundred tokens.
	passageTokens = 400
	// updateKeys are the keys PI-LLM tracks at once.
	updateKeys = 46
	// maxUpdates is the largest number of updates rendered: beyond it a
	// render runs past 100,000 tokens and the point lies far outside the
	// envelope (2–16 rows), so it is shown, not computed.
	maxUpdates = 48
)

// measurementCache holds every point's renders, built once: they do not
// depend on the profile.
var measurementCache struct {
	sync.Mutex
	byID map[string]*Measurement
}

// Measurements are the measurement models of every measured registry
// point that stands for family, in registry order, with the point's
// stage-1 weight for that family.
func Measurements(reg *EvidenceRegistry, family string) []*Measurement {
	var out []*Measurement
	series := map[string][]EvidencePoint{}
	for _, p := range reg.Points {
		if p.Kind == EvidenceMeasured && p.StandsFor(family) {
			series[curveOf(p)] = append(series[curveOf(p)], p)
		}
	}
	for _, p := range reg.Points {
		if p.Kind != EvidenceMeasured || !p.StandsFor(family) {
			continue
		}
		base := measurementOf(p, series[curveOf(p)])
		m := *base
		m.Weight, m.WeightWhy = pointWeight(&m, family, series[curveOf(p)])
		out = append(out, &m)
	}
	return out
}

// curveOf names p's curve: its series and skill (a NoLiMa series holds a
// prose base score and a length curve).
func curveOf(p EvidencePoint) string { return p.Series + "\x00" + string(p.Skill) }

// measurementOf is p's measurement model (cached by id), with series the
// points of its curve.
func measurementOf(p EvidencePoint, series []EvidencePoint) *Measurement {
	measurementCache.Lock()
	if m, ok := measurementCache.byID[p.ID]; ok {
		measurementCache.Unlock()
		return m
	}
	measurementCache.Unlock()
	m := buildMeasurement(p, series)
	measurementCache.Lock()
	if measurementCache.byID == nil {
		measurementCache.byID = map[string]*Measurement{}
	}
	measurementCache.byID[p.ID] = m
	measurementCache.Unlock()
	return m
}

// proportion is a published value as a proportion in [0, 1].
func proportion(p EvidencePoint) float64 {
	if strings.HasPrefix(p.ValueUnit, "percent") {
		return p.Value / 100
	}
	return p.Value
}

// seriesAnchor is the point of series a shape is measured from: the one
// with the smallest x (the shortest context, the fewest distractors).
func seriesAnchor(series []EvidencePoint) EvidencePoint {
	a := series[0]
	for _, p := range series[1:] {
		if p.HasXNum && (!a.HasXNum || p.XNum < a.XNum) {
			a = p
		}
	}
	return a
}

func sourceKey(p EvidencePoint) string { k, _, _ := strings.Cut(p.ID, "/"); return k }

// buildMeasurement builds p's renders and role from its source and skill.
func buildMeasurement(p EvidencePoint, series []EvidencePoint) *Measurement {
	m := &Measurement{Point: p, Value: proportion(p)}
	add := func(in reader.Input, gold string) { m.renders = append(m.renders, scoreInput(in, gold)) }
	kTokens := func(x float64) int { return int(math.Round(x * 1000)) }
	src := sourceKey(p)
	para := paraphrased[src]
	shape := func() {
		m.Role, m.Anchor = roleShape, seriesAnchor(series).ID
		if levelAnchored[src] && p.ID == m.Anchor {
			m.Role = roleLevel
		}
	}
	words := "naming the key"
	if para {
		words = "in words the question does not use"
	}
	switch {
	case p.Skill == EvidenceLength:
		tokens := kTokens(p.XNum)
		if src == "babilong" && p.XNum == 0 {
			tokens = 200 // the bAbI story alone
		}
		if tokens > maxNeedleTokens {
			m.Role, m.Regime = roleNone, "not rendered"
			m.Reason = fmt.Sprintf("%s tokens lies beyond 32K, where these models' context windows end and the registry's curves fall off a cliff no log-linear cost follows; far outside the envelope (0.3k–8k)", p.X)
			break
		}
		add(needleRender(tokens, haystackLineTokens, 0, para))
		m.Regime = fmt.Sprintf("one line stating the key's value (%s) in the middle of %d tokens of undated filler paragraphs (%d tokens each)", words, m.lastTokens(), haystackLineTokens)
		shape()
	case p.Skill == EvidenceProse && src == "nolima":
		for _, t := range []int{250, 500, 1000} {
			add(needleRender(t, haystackLineTokens, 0, para))
		}
		m.Regime = "one line stating the key's value in words the question does not use, among undated filler paragraphs, at 250, 500 and 1,000 tokens (the base score pools these lengths); the mean of the three"
		m.Role = roleLevel
	case p.Skill == EvidenceProse:
		add(needleRender(passageTokens, haystackLineTokens, 0, para))
		m.Regime = fmt.Sprintf("a passage of about %d tokens, one line of which states the key's value (%s)", passageTokens, words)
		m.Role = roleLevel
	case p.Skill == EvidenceConflict:
		add(sourcesRender(passageTokens))
		m.Regime = fmt.Sprintf("two sources side by side state different values for the key, undated, nothing retracting either, among other keys' rows (%d tokens); right = abstain", passageTokens)
		m.Role = roleLevel
	case p.Skill == EvidenceDistractors && src == "litm":
		k := int(p.XNum)
		tokens := (k + 1) * documentTokens
		add(needleRender(tokens, documentTokens, 0, para))
		m.Regime = fmt.Sprintf("the answer line among %d distractor documents of %d tokens (%d tokens); position within the context is not modelled", k, documentTokens, m.lastTokens())
		m.Role, m.Anchor = roleShape, litmAnchor(p, series)
	case p.Skill == EvidenceDistractors:
		add(needleRender(4000, haystackLineTokens, int(p.XNum), para))
		m.Regime = fmt.Sprintf("one line stating the key's value and %d lines stating other keys' values in 4,000 tokens of filler paragraphs", int(p.XNum))
		shape()
	case p.Skill == EvidenceRows:
		n := int(p.XNum)
		m.Role = roleLevel
		if n > maxUpdates {
			m.Role, m.Reason = roleNone, fmt.Sprintf("%d updates of each of %d keys run past 100,000 tokens, far beyond the envelope (2–16 rows)", n, updateKeys)
			m.Regime = "not rendered"
			break
		}
		add(updatesRender(n, updateKeys, 1))
		m.Regime = fmt.Sprintf("%d keys each updated %d times, the %d updates interleaved at random and undated (%d tokens); right = the asked key's last value", updateKeys, n, updateKeys*n, m.lastTokens())
	case p.Skill == EvidenceFormat:
		m.Role = roleNone
		m.Regime = "not rendered"
		m.Reason = "a single-record lookup among 1,000 records in one serialisation at 36k–86k tokens: the model has no act for finding one row of a structured render (the layout costs act on sorting and reading several rows), so it cannot reach a level for it; the spread between formats it can show is Table 17's"
	default:
		m.Role, m.Reason, m.Regime = roleNone, "no measurement model for this source and skill", "not rendered"
	}
	return m
}

// lastTokens is the length of the measurement's last render.
func (m *Measurement) lastTokens() int {
	if len(m.renders) == 0 {
		return 0
	}
	return m.renders[len(m.renders)-1].feat.Tokens
}

// litmAnchor is the anchor of a Lost in the Middle point: the oracle
// point (no distractor) of the family's first-position series, which the
// last-position series shares, so both drops are from the answer alone.
func litmAnchor(p EvidencePoint, series []EvidencePoint) string {
	id := p.ID
	if i := strings.LastIndex(id, "/"); i >= 0 {
		base := id[:i]
		if j := strings.LastIndex(base, "/"); j >= 0 {
			return base[:j] + "/first/0"
		}
	}
	return seriesAnchor(series).ID
}

// ownModel reports whether p measured family's own model (the registry's
// stand-in note begins "the paper's model", for the family where one note
// covers several).
func ownModel(p EvidencePoint, family string) bool {
	note := p.StandIn
	if i := strings.Index(note, "for "+family+": "); i >= 0 {
		note = note[i+len("for "+family+": "):]
		if j := strings.Index(note, "; for "); j >= 0 {
			note = note[:j]
		}
	}
	return strings.HasPrefix(note, "the paper's model")
}

// Stage-1 weights: each series counts once in its family's fit (its
// points' weights sum to 1), a stand-in's series half, and within a series
// a point counts by how far its regime lies from the envelope's (renders
// up to 8,000 tokens, 2–16 rows).
const (
	standInWeight = 0.5
)

// regimeWeight is the weight of a point by its regime: 1 inside the
// envelope (up to 8K tokens, 17 updates), 0.5 up to 16K tokens or 24
// updates, 0.25 up to 32K tokens or 48 updates, and 0 beyond (shown, not
// fitted).
func regimeWeight(p EvidencePoint) float64 {
	switch p.Skill {
	case EvidenceLength:
		switch {
		case p.XNum <= 8:
			return 1
		case p.XNum <= 16:
			return 0.5
		case p.XNum <= 32:
			return 0.25
		}
		return 0
	case EvidenceRows:
		switch {
		case p.XNum <= 17:
			return 1
		case p.XNum <= 24:
			return 0.5
		case p.XNum <= maxUpdates:
			return 0.25
		}
		return 0
	}
	return 1
}

// pointWeight is m's weight in family's stage-1 fit, with what set it.
func pointWeight(m *Measurement, family string, series []EvidencePoint) (float64, string) {
	if m.Role == roleNone {
		return 0, "not modelled: " + m.Reason
	}
	if m.Role == roleShape && m.Point.ID == m.Anchor {
		return 0, "the series' anchor: its shape is measured from here"
	}
	total := 0.0
	for _, q := range series {
		if qm := measurementOf(q, series); qm.Role != roleNone && !(qm.Role == roleShape && qm.Anchor == q.ID) {
			total += regimeWeight(q)
		}
	}
	if regimeWeight(m.Point) == 0 {
		return 0, fmt.Sprintf("measured at %s %s, beyond the regimes the fit reads (up to 32K tokens, 48 updates)", m.Point.X, m.Point.XUnit)
	}
	w := regimeWeight(m.Point) / total
	why := fmt.Sprintf("regime weight %.2g of the series' %.3g", regimeWeight(m.Point), total)
	if !ownModel(m.Point, family) {
		w *= standInWeight
		why += fmt.Sprintf("; a stand-in for %s (×%g)", family, standInWeight)
	}
	return w, why
}
