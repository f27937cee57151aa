package judge

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// This file builds the judge audit's planted answers. Its rules are its
// own: it never calls the judge package's normaliser (which lives in
// another package and is unexported), so no planted answer passes a judge
// because both sides share a rule. Values are compared with the ledger's
// esr.StateOf where "the same value" is needed.

// PlantAnswers builds a panel of planted answers for every snapshot QA of b
// with a value gold (ABSTAIN golds have nothing to plant around; provenance
// and relation-type golds are not the key's current value), in b.QAs
// order. With gold B and the key's prior value A (priorValue):
//
//   - gold: B as written;
//   - paraphrase: B rewritten by the first rule that applies
//     (paraphraseOf): a quantity's unit spelled out, with a number of 0 to
//     99 in words ("90 s" → "ninety seconds", "128 MB" → "128 megabytes",
//     "69,183 km2" → "69,183 square kilometres"); a scale word expanded
//     ("21.1 million" → "21,100,000"); a bare number in words ("7" →
//     "seven"); an ISO date in words ("2015-02-03" → "3 February 2015");
//     else the QA's first alias; else none;
//   - outdated: A; was-now: "was A, now B"; now-previously: "B (previously
//     A)" (none of the three without a prior value);
//   - hedge: "probably B"; abstain: "I don't know"; incorrect: the literal
//     "INCORRECT"; negated: "not B";
//   - unrelated: a value of the same attribute name held by another key of
//     the bench (unrelatedValue), none when there is no such value.
func PlantAnswers(b *bench.Bench) []Panel {
	pool := attributeValues(b)
	var out []Panel
	for i := range b.QAs {
		qa := &b.QAs[i]
		if qa.Type() != esr.Snapshot || qa.GoldAbstain() || strings.TrimSpace(qa.GoldAnswer) == "" {
			continue
		}
		out = append(out, plantPanel(qa, b.Atoms[qa.StreamID], pool))
	}
	return out
}

func plantPanel(qa *esr.QA, atoms []esr.Atom, pool map[string][]string) Panel {
	gold := qa.GoldAnswer
	p := Panel{QA: qa, QID: qa.QID}
	add := func(k Kind, v, how string) {
		p.Answers = append(p.Answers, Planted{Kind: k, Answer: esr.Says(v), How: how})
	}
	add(KindGold, gold, "the gold as written")
	if v, how, ok := paraphraseOf(gold, qa.Aliases); ok {
		add(KindParaphrase, v, how)
	}
	key, own := plantKey(qa, atoms)
	if prior, ok := priorValue(qa, atoms, key); ok {
		add(KindOutdated, prior, "the key's prior distinct value")
		add(KindWasNow, "was "+prior+", now "+gold, "prior and gold, prior first")
		add(kindNowPreviously, gold+" (previously "+prior+")", "gold and prior, gold first")
	}
	add(KindHedge, "probably "+gold, "hedged gold")
	add(kindAbstain, "I don't know", "an abstention in words")
	if v, ok := unrelatedValue(qa, key, own, pool); ok {
		add(KindUnrelated, v, "another key's value of attribute "+key.Attribute)
	}
	add(KindIncorrect, "INCORRECT", "the literal word")
	add(kindNegated, "not "+gold, "negated gold")
	return p
}

// plantKey is the QA's key (its Entity/Attribute, else the key of the
// atoms at its gold supporting events) and the states its atoms hold.
func plantKey(qa *esr.QA, atoms []esr.Atom) (esr.Key, map[string]bool) {
	key := esr.Key{Entity: qa.Entity, Attribute: qa.Attribute}
	if key.Entity == "" || key.Attribute == "" {
		support := eventSet(qa.GoldSupportingEventIDs)
		for i := range atoms {
			if support[atoms[i].EventID] {
				key = atoms[i].Key()
			}
		}
	}
	own := map[string]bool{esr.StateOf(qa.GoldAnswer, esr.Positive): true}
	for i := range atoms {
		if atoms[i].Key() == key {
			own[esr.StateOf(atoms[i].Value, atoms[i].Polarity)] = true
		}
	}
	return key, own
}

func eventSet(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// priorValue is the key's prior distinct value: among the key's
// positive atoms before its last atom at a gold supporting event (all of
// them when none is), the latest whose state (esr.StateOf) differs from the
// gold's and from every supporting atom's; failing that, the latest such
// atom at one of the QA's gold deprecated events.
func priorValue(qa *esr.QA, atoms []esr.Atom, key esr.Key) (string, bool) {
	support := eventSet(qa.GoldSupportingEventIDs)
	current := map[string]bool{esr.StateOf(qa.GoldAnswer, esr.Positive): true}
	last := len(atoms)
	for i := range atoms {
		if a := &atoms[i]; a.Key() == key && support[a.EventID] {
			current[esr.StateOf(a.Value, a.Polarity)] = true
			last = i
		}
	}
	differs := func(a *esr.Atom) bool {
		return a.Key() == key && a.Polarity == esr.Positive && !current[esr.StateOf(a.Value, a.Polarity)]
	}
	for i := last - 1; i >= 0; i-- {
		if differs(&atoms[i]) {
			return atoms[i].Value, true
		}
	}
	deprecated := eventSet(qa.GoldDeprecatedEventIDs)
	for i := len(atoms) - 1; i >= 0; i-- {
		if deprecated[atoms[i].EventID] && differs(&atoms[i]) {
			return atoms[i].Value, true
		}
	}
	return "", false
}

// attributeValues lists, per attribute name, the distinct positive values
// (by esr.StateOf) the bench's atoms hold, in file order.
func attributeValues(b *bench.Bench) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, s := range b.Streams {
		for _, a := range b.Atoms[s.ID] {
			if a.Polarity != esr.Positive || strings.TrimSpace(a.Value) == "" {
				continue
			}
			id := a.Attribute + "\x00" + esr.StateOf(a.Value, a.Polarity)
			if seen[id] {
				continue
			}
			seen[id] = true
			out[a.Attribute] = append(out[a.Attribute], a.Value)
		}
	}
	return out
}

// unrelatedValue picks a value of the key's attribute name that the key
// itself never held (own) and that neither contains the gold nor is
// contained in it (case-folded), starting at a position hashed from the
// QID so different questions get different values.
func unrelatedValue(qa *esr.QA, key esr.Key, own map[string]bool, pool map[string][]string) (string, bool) {
	vals := pool[key.Attribute]
	if len(vals) == 0 {
		return "", false
	}
	h := fnv.New32a()
	h.Write([]byte(qa.QID))
	start := int(h.Sum32() % uint32(len(vals)))
	gold := strings.ToLower(qa.GoldAnswer)
	for i := range vals {
		v := vals[(start+i)%len(vals)]
		low := strings.ToLower(v)
		if own[esr.StateOf(v, esr.Positive)] || strings.Contains(low, gold) || strings.Contains(gold, low) {
			continue
		}
		return v, true
	}
	return "", false
}

// The paraphrase rules' own vocabulary.
var (
	quantityRe = regexp.MustCompile(`^(\$?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([A-Za-z%]+[0-9]?)$`)
	scaleRe    = regexp.MustCompile(`^(\$?)(\d+(?:\.\d+)?) (thousand|million|billion)$`)
	integerRe  = regexp.MustCompile(`^\d{1,2}$`)
	dayRe      = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	monthRe    = regexp.MustCompile(`^(\d{4})-(\d{2})$`)

	// unitWords spells a unit out: singular, plural.
	unitWords = map[string][2]string{
		"ms": {"millisecond", "milliseconds"}, "s": {"second", "seconds"}, "sec": {"second", "seconds"},
		"secs": {"second", "seconds"}, "min": {"minute", "minutes"}, "mins": {"minute", "minutes"},
		"h": {"hour", "hours"}, "hr": {"hour", "hours"}, "hrs": {"hour", "hours"}, "d": {"day", "days"},
		"kb": {"kilobyte", "kilobytes"}, "mb": {"megabyte", "megabytes"}, "gb": {"gigabyte", "gigabytes"},
		"tb": {"terabyte", "terabytes"}, "%": {"percent", "percent"}, "km2": {"square kilometre", "square kilometres"},
		"km": {"kilometre", "kilometres"}, "kg": {"kilogram", "kilograms"},
	}
	scaleFactor = map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9}
	ones        = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tens       = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September",
		"October", "November", "December"}
)

// paraphraseOf rewrites gold by the first rule that applies (see
// PlantAnswers) and names the rule.
func paraphraseOf(gold string, aliases []string) (string, string, bool) {
	g := strings.TrimSpace(gold)
	if m := quantityRe.FindStringSubmatch(g); m != nil {
		if w, ok := unitWords[strings.ToLower(m[3])]; ok {
			num := m[2]
			unit := w[1]
			if num == "1" {
				unit = w[0]
			}
			if n, err := strconv.Atoi(num); err == nil && n < 100 && m[1] == "" {
				return numberWords(n) + " " + unit, "unit spelled out, number in words", true
			}
			return m[1] + num + " " + unit, "unit spelled out", true
		}
	}
	if m := scaleRe.FindStringSubmatch(g); m != nil {
		x, _ := strconv.ParseFloat(m[2], 64)
		return m[1] + groupThousands(int64(x*scaleFactor[m[3]]+0.5)), "scale word as digits", true
	}
	if integerRe.MatchString(g) {
		n, _ := strconv.Atoi(g)
		return numberWords(n), "number in words", true
	}
	if m := dayRe.FindStringSubmatch(g); m != nil {
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if mo >= 1 && mo <= 12 && d >= 1 && d <= 31 {
			return fmt.Sprintf("%d %s %s", d, monthNames[mo-1], m[1]), "date in words", true
		}
	}
	if m := monthRe.FindStringSubmatch(g); m != nil {
		if mo, _ := strconv.Atoi(m[2]); mo >= 1 && mo <= 12 {
			return monthNames[mo-1] + " " + m[1], "date in words", true
		}
	}
	for _, a := range aliases {
		if strings.TrimSpace(a) != "" && !strings.EqualFold(strings.TrimSpace(a), g) {
			return a, "the QA's first alias", true
		}
	}
	return "", "", false
}

// numberWords writes 0 ≤ n < 100 in words, "forty-two".
func numberWords(n int) string {
	if n < 20 {
		return ones[n]
	}
	if n%10 == 0 {
		return tens[n/10]
	}
	return tens[n/10] + "-" + ones[n%10]
}

// groupThousands writes n with commas every three digits.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
