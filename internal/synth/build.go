package synth

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
)

type actor struct{ name, role string }

// riderP is the probability that an event asserting one key also asserts
// the next claim of another (side) key: GitHub comments and revisions often
// touch several facts at once.
const riderP = 0.3

// streamGen plans and writes one stream.
type streamGen struct {
	cfg    *Config
	src    string // github | wiki | dyknow
	phen   esr.Phenomenon
	r      *rand.Rand
	rx     *rand.Rand // the composition knobs' draws (decorate.go, register.go)
	sty    *style
	id     string
	target int // planned number of events
	// bin is the stream's Table 12 bin under Config.LengthWeights
	// (stratifiedBins).
	bin int
	// distractors is the number of distractor keys to add (decorate.go).
	distractors int
	// padding state (register.go): the event being padded and the prose
	// sentences the stream has used.
	padAt    time.Time
	padFirst bool
	padUsed  map[string]bool

	issue   int
	comp    string
	repo    string
	symptom string
	entName string
	actors  []actor
	people  []int // actors that write prose (not anonymous, not sources)
	ip      int   // the anonymous editor (wiki), or -1
	sources []int // cited sources (dyknow)

	keys   []*keyPlan
	events []*evPlan
}

type evPlan struct {
	kind    string
	actor   int
	claims  []*claim
	opening bool
	at      time.Time
	date    string // the date as the prose writes it (dyknow)
	inDate  string // the same with its preposition
	text    string
}

// Length bins of the paper's Table 12, right-closed as pandas.qcut prints
// them: (1,5], (5,6], (6,10], (10,20], (20,70].
var lengthBins = [][2]int{{1, 5}, {5, 6}, {6, 10}, {10, 20}, {20, 70}}

func (g *streamGen) drawLength() int {
	var b [2]int
	if g.cfg.LengthWeights != nil {
		b = lengthBins[g.bin]
	} else {
		b = lengthBins[g.r.IntN(len(lengthBins))]
	}
	lo, hi := b[0]+1, b[1]
	if b[0] == 20 {
		u := g.r.Float64()
		return lo + int(float64(hi-lo)*u*u)
	}
	return lo + g.r.IntN(hi-lo+1)
}

func attrsOf(src string) []*attr {
	switch src {
	case "wiki":
		return wikiAttrs
	case "dyknow":
		return dyknowAttrs
	}
	return githubAttrs
}

func (g *streamGen) setup(mainAttr *attr) {
	r := g.r
	switch g.src {
	case "github":
		g.issue = 100 + r.IntN(9800)
		g.comp = pick(r, components)
		g.repo = "esr-synth/" + pick(r, repoNames)
		g.symptom = pick(r, symptoms)
		names := map[string]bool{}
		add := func(role string) {
			for {
				h := handle(r)
				if !names[h] {
					names[h] = true
					g.actors = append(g.actors, actor{h, role})
					return
				}
			}
		}
		add("reporter")
		for i := 0; i < 1+r.IntN(2); i++ {
			add("maintainer")
		}
		for i := 0; i < 1+r.IntN(3); i++ {
			add("contributor")
		}
		for i := range g.actors {
			g.people = append(g.people, i)
		}
		g.ip = -1
	case "wiki":
		g.entName = placeName(r)
		for _, e := range shuffled(r, editorNames)[:2+r.IntN(3)] {
			g.people = append(g.people, len(g.actors))
			g.actors = append(g.actors, actor{e, "editor"})
		}
		g.ip = len(g.actors)
		g.actors = append(g.actors, actor{docIP(r), "anonymous"})
	case "dyknow":
		switch mainAttr.ent {
		case entCompany:
			g.entName = companyName(r)
		case entAthlete:
			g.entName = personName(r)
		case entOrg:
			g.entName = orgName(r)
		default:
			g.entName = placeName(r)
		}
		for _, s := range shuffled(r, factSources)[:3] {
			g.sources = append(g.sources, len(g.actors))
			g.actors = append(g.actors, actor{s, "source"})
		}
		g.ip = -1
	}
}

func (g *streamGen) newKey(a *attr, main bool) *keyPlan {
	k := &keyPlan{idx: len(g.keys), a: a, main: main, pool: a.pool(g.r), phen: esr.Monotonic}
	switch a.ent {
	case entComponent:
		k.key = esr.Key{Entity: g.comp, Attribute: a.name}
		k.text = "the " + g.comp
	case entIssue:
		k.key = esr.Key{Entity: fmt.Sprintf("issue #%d", g.issue), Attribute: a.name}
		k.text = "this issue"
	default:
		k.key = esr.Key{Entity: g.entName, Attribute: a.name}
		k.text = g.entName
	}
	g.keys = append(g.keys, k)
	return k
}

// person draws a prose-writing actor other than the excluded ones, or -1
// when the source has none (DyKnow-style facts).
func (g *streamGen) person(exclude ...int) int {
	var cand []int
outer:
	for _, p := range g.people {
		for _, x := range exclude {
			if p == x {
				continue outer
			}
		}
		cand = append(cand, p)
	}
	if len(cand) == 0 {
		if len(g.people) == 0 {
			return -1
		}
		return pick(g.r, g.people)
	}
	return pick(g.r, cand)
}

func (g *streamGen) friendly(k claimKind) bool { return g.r.Float64() < friendlyP[k] }

// buildMain writes the main key's history for the stream's stratum.
func (g *streamGen) buildMain(k *keyPlan) error {
	r := g.r
	k.main, k.phen = true, g.phen
	first := g.person()
	if g.src == "github" && r.Float64() < 0.6 {
		first = 0 // the reporter, in the opening post
	}
	canRestate := k.a.special != "status"
	restate := func(v string, actor int) {
		if canRestate {
			k.add(&claim{kind: kRestate, value: v, actor: actor})
		}
	}
	next := func(prev int) int { // who makes the next change
		if prev >= 0 && r.Float64() < 0.5 {
			return prev
		}
		return g.person(prev)
	}
	switch g.phen {
	case esr.RevertedRevert:
		v1, v2 := k.fresh(), k.fresh()
		if k.a.special == "status" {
			v1, v2 = "open", "closed"
		}
		k.add(&claim{kind: kInitial, value: v1, actor: first})
		if r.Float64() < 0.35 {
			restate(v1, g.person(first))
		}
		upActor, special := next(first), ""
		if g.src == "wiki" && r.Float64() < 0.5 {
			upActor, special = g.ip, "vandal"
		}
		k.add(&claim{kind: kUpdate, value: v2, old: v1, actor: upActor, friendly: g.friendly(kUpdate), special: special})
		mid := v2
		if special == "" && r.Float64() < 0.2 {
			if v3 := k.fresh(); v3 != "" && k.a.special != "status" {
				k.add(&claim{kind: kUpdate, value: v3, old: v2, actor: next(upActor), friendly: g.friendly(kUpdate)})
				mid = v3
			}
		}
		if r.Float64() < 0.25 {
			restate(mid, g.person(g.ip))
		}
		revActor := next(upActor)
		friendly := g.friendly(kRevert)
		if special == "vandal" {
			revActor, friendly = g.person(g.ip), r.Float64() < 0.85
		}
		k.add(&claim{kind: kRevert, value: v1, old: mid, actor: revActor, friendly: friendly})
		if r.Float64() < 0.3 {
			restate(v1, g.person(g.ip))
		}
	case esr.Monotonic:
		k.pure = r.Float64() < 0.5
		v := k.fresh()
		if k.a.special == "status" {
			v = "open"
		}
		k.add(&claim{kind: kInitial, value: v, actor: first})
		if k.pure {
			for n := r.IntN(3); n > 0; n-- {
				restate(v, g.person())
			}
			break
		}
		who := first
		changes := 1
		if k.a.special != "status" {
			changes += b2i(r.Float64() < 0.35) + b2i(r.Float64() < 0.1)
		}
		for c := 0; c < changes; c++ {
			nv := k.fresh()
			if k.a.special == "status" {
				nv = "closed"
			}
			if nv == "" {
				break
			}
			who = next(who)
			k.add(&claim{kind: kUpdate, value: nv, old: v, actor: who, friendly: g.friendly(kUpdate)})
			v = nv
			if r.Float64() < 0.25 {
				restate(v, g.person())
			}
		}
	case esr.CrossSourceConflict:
		a, b := first, -1
		if g.src == "dyknow" {
			a, b = g.sources[0], g.sources[1]
		} else {
			b = g.person(a)
		}
		v1 := k.fresh()
		if r.Float64() < 0.3 {
			v0 := v1
			v1 = k.fresh()
			pre := a
			if g.src == "dyknow" {
				pre = -1
			}
			k.add(&claim{kind: kInitial, value: v0, actor: pre})
			k.add(&claim{kind: kUpdate, value: v1, old: v0, actor: a, friendly: g.friendly(kUpdate)})
		} else {
			k.add(&claim{kind: kInitial, value: v1, actor: a})
		}
		if r.Float64() < 0.25 && g.src != "dyknow" {
			restate(v1, g.person(b))
		}
		v2 := k.fresh()
		k.add(&claim{kind: kConflict, value: v2, old: v1, actor: b, friendly: g.friendly(kConflict)})
		if r.Float64() < 0.25 {
			c := g.person(a, b)
			if g.src == "dyknow" {
				c = g.sources[2]
			}
			if v3 := k.fresh(); v3 != "" && c != a && c != b {
				k.add(&claim{kind: kConflict, value: v3, old: v2, actor: c, friendly: g.friendly(kConflict)})
			}
		}
	case esr.Refinement:
		kind, v1, v2, err := k.drawRefinement(r)
		if err != nil {
			return err
		}
		if r.Float64() < 0.3 {
			v0 := k.fresh()
			k.add(&claim{kind: kInitial, value: v0, actor: first})
			k.add(&claim{kind: kUpdate, value: v1, old: v0, actor: next(first), friendly: g.friendly(kUpdate)})
		} else {
			k.add(&claim{kind: kInitial, value: v1, actor: first})
		}
		if r.Float64() < 0.3 {
			restate(v1, g.person())
		}
		k.add(&claim{kind: kRefine, value: v2, old: v1, refines: v1, refineKind: kind, actor: g.person(), friendly: g.friendly(kRefine)})
		if r.Float64() < 0.3 {
			restate(v2, g.person())
		}
	}
	for _, c := range k.seq {
		if c.value == "" {
			return fmt.Errorf("synth: attribute %s ran out of values", k.a.name)
		}
		if g.src == "dyknow" && !(g.phen == esr.CrossSourceConflict && c.actor >= 0) {
			c.actor = -1
		}
	}
	return nil
}

// buildSide writes a monotonic side key with n claims (at least one).
func (g *streamGen) buildSide(k *keyPlan, n int) int {
	r := g.r
	k.pure = n == 1 || r.Float64() < 0.5
	v := k.fresh()
	if k.a.special == "status" {
		v = "open"
		if n > 2 {
			n = 2
		}
	}
	k.add(&claim{kind: kInitial, value: v, actor: hostActor})
	changed := false
	for j := 1; j < n; j++ {
		change := !k.pure && (r.Float64() < 0.5 || !changed && j == n-1)
		if k.a.special == "status" {
			change = !k.pure
		}
		if change {
			nv := k.fresh()
			if k.a.special == "status" {
				nv = "closed"
			}
			if nv != "" {
				k.add(&claim{kind: kUpdate, value: nv, old: v, actor: hostActor, friendly: g.friendly(kUpdate)})
				v, changed = nv, true
				continue
			}
		}
		if k.a.special == "status" {
			return j
		}
		k.add(&claim{kind: kRestate, value: v, actor: hostActor})
	}
	if !changed {
		k.pure = true
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plan builds every key's history and the event layout.
func (g *streamGen) plan() error {
	r := g.r
	var mains []*attr
	for _, a := range attrsOf(g.src) {
		if a.mainOK(g.phen) {
			mains = append(mains, a)
		}
	}
	mainAttr := pick(r, mains)
	g.setup(mainAttr)
	main := g.newKey(mainAttr, true)
	if err := g.buildMain(main); err != nil {
		return err
	}
	n := g.drawLength()
	if n < len(main.seq) {
		n = len(main.seq)
	}
	g.target = n
	var sideSlots, fillers, clutterClaims int
	for i := len(main.seq); i < n; i++ {
		switch {
		case r.Float64() >= g.cfg.Clutter:
			sideSlots++
		case r.Float64() < g.cfg.Restate:
			clutterClaims++
		default:
			fillers++
		}
	}
	// Side keys: other attributes of the same entity kind.
	var avail []*attr
	for _, a := range attrsOf(g.src) {
		if a == mainAttr || g.src == "dyknow" && a.ent != mainAttr.ent {
			continue
		}
		avail = append(avail, a)
	}
	avail = shuffledAttrs(r, avail)
	if sideSlots > 0 {
		m := min(len(avail), 4, 1+sideSlots/3)
		if m == 0 {
			fillers += sideSlots
		} else {
			counts := make([]int, m)
			for i := range counts {
				counts[i] = 1
			}
			for i := m; i < sideSlots; i++ {
				counts[r.IntN(m)]++
			}
			for i := 0; i < m; i++ {
				k := g.newKey(avail[i], false)
				used := g.buildSide(k, counts[i])
				fillers += counts[i] - used
			}
		}
	}
	for i := 0; i < clutterClaims; i++ {
		k := main
		if len(g.keys) > 1 && r.Float64() >= 0.6 {
			k = g.keys[1+r.IntN(len(g.keys)-1)]
		}
		recall := r.Float64() < 0.5
		who := g.person()
		if g.src == "dyknow" {
			who = -1
		}
		if !k.insertClutterClaim(r, recall, who) && !k.insertClutterClaim(r, !recall, who) {
			fillers++
		}
	}
	g.layout(fillers)
	return nil
}

func shuffledAttrs(r *rand.Rand, xs []*attr) []*attr {
	out := append([]*attr(nil), xs...)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// layout interleaves the keys' claims and the filler events at random,
// keeping each key's order, lets some events carry a second key's claim,
// and trims or pads fillers to the planned length.
func (g *streamGen) layout(fillers int) {
	r := g.r
	queues := make([][]*claim, 0, len(g.keys)+1)
	for _, k := range g.keys {
		queues = append(queues, append([]*claim(nil), k.seq...))
	}
	fq := make([]*claim, fillers)
	queues = append(queues, fq)
	pop := func(q int) *claim {
		c := queues[q][0]
		queues[q] = queues[q][1:]
		return c
	}
	if g.src == "github" {
		ev := &evPlan{kind: "issue_opened", actor: 0, opening: true}
		for qi, k := range g.keys {
			if len(queues[qi]) == 0 {
				continue
			}
			head := queues[qi][0]
			if k.a.special == "status" || (k.main && head.actor == 0) || (!k.main && r.Float64() < 0.3) {
				c := pop(qi)
				if c.actor == hostActor {
					c.actor = 0
				}
				ev.claims = append(ev.claims, c)
			}
		}
		g.events = append(g.events, ev)
	}
	for {
		total := 0
		for _, q := range queues {
			total += len(q)
		}
		if total == 0 {
			break
		}
		x := r.IntN(total)
		qi := 0
		for ; x >= len(queues[qi]); qi++ {
			x -= len(queues[qi])
		}
		c := pop(qi)
		ev := &evPlan{actor: -1}
		if c == nil {
			if g.src != "dyknow" {
				ev.actor = g.person()
			}
			g.events = append(g.events, ev)
			continue
		}
		ev.claims = []*claim{c}
		ev.actor = c.actor
		switch {
		case ev.actor == hostActor && g.src == "dyknow":
			ev.actor = -1
		case ev.actor == hostActor, ev.actor == -1 && g.src != "dyknow":
			ev.actor = g.person()
		}
		c.actor = ev.actor
		if c.kind.assertive() && c.special == "" && r.Float64() < riderP {
			for _, qj := range r.Perm(len(g.keys)) {
				if qj == qi || len(queues[qj]) == 0 || g.keys[qj].main || g.keys[qj].a.special == "status" {
					continue
				}
				h := queues[qj][0]
				if h.kind == kInitial || h.kind == kUpdate || h.kind == kRestate {
					h = pop(qj)
					h.actor = ev.actor
					ev.claims = append(ev.claims, h)
					break
				}
			}
		}
		g.events = append(g.events, ev)
	}
	// Trim or pad plain filler events to the planned length.
	first := 0
	if g.src == "github" {
		first = 1
	}
	for len(g.events) > g.target {
		var idx []int
		for i := first; i < len(g.events); i++ {
			if len(g.events[i].claims) == 0 {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			break
		}
		i := pick(r, idx)
		g.events = append(g.events[:i], g.events[i+1:]...)
	}
	for len(g.events) < g.target {
		i := first + r.IntN(len(g.events)-first+1)
		ev := &evPlan{actor: -1}
		if g.src != "dyknow" {
			ev.actor = g.person()
		}
		g.events = append(g.events[:i], append([]*evPlan{ev}, g.events[i:]...)...)
	}
}

// stamp assigns strictly increasing times in the source's rhythm.
func (g *streamGen) stamp() {
	r := g.r
	var t time.Time
	switch g.src {
	case "github":
		t = time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(2000*24*3600)) * time.Second)
	case "wiki":
		t = time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(5400*24*3600)) * time.Second)
	default:
		t = time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(9000))
	}
	for i, ev := range g.events {
		if i > 0 {
			switch g.src {
			case "github":
				t = t.Add(time.Duration(600+int(r.ExpFloat64()*120000)) * time.Second)
			case "wiki":
				t = t.Add(time.Duration(3600+int(r.ExpFloat64()*40*86400)) * time.Second)
			default:
				t = t.AddDate(0, 0, 30+int(r.ExpFloat64()*400))
			}
		}
		ev.at = t
		if g.src == "dyknow" {
			switch r.IntN(4) {
			case 0:
				ev.date = t.Format("2006")
				ev.inDate = "in " + ev.date
			case 1:
				ev.date = t.Format("January 2006")
				ev.inDate = "in " + ev.date
			default:
				ev.date = t.Format("2006-01-02")
				ev.inDate = "on " + ev.date
			}
		}
	}
}

// surface writes v as the prose may: a paraphrase with probability
// cfg.Paraphrase, else the canonical value.
func (g *streamGen) surface(a *attr, v string) string {
	if ss := a.surfacesOf(v); len(ss) > 0 && g.r.Float64() < g.cfg.Paraphrase {
		return pick(g.r, ss)
	}
	return v
}

func (g *streamGen) actorName(i int) string {
	if i < 0 || i >= len(g.actors) {
		return ""
	}
	return g.actors[i].name
}

func (g *streamGen) fill(t string, ev *evPlan, c *claim) string {
	r := g.r
	var pairs []string
	if c != nil {
		v := g.surface(c.key.a, c.value)
		o := c.old
		if o != "" {
			o = g.surface(c.key.a, o)
		}
		pairs = append(pairs, "{a}", c.key.a.phrase, "{A}", capFirst(c.key.a.phrase), "{f}", c.key.a.name, "{v}", v, "{V}", capFirst(v), "{o}", o, "{e}", c.key.text)
	} else if g.src == "github" {
		pairs = append(pairs, "{e}", "the "+g.comp)
	} else {
		pairs = append(pairs, "{e}", g.entName)
	}
	someone := g.actorName(g.person(ev.actor))
	if someone == "" || g.src != "github" {
		someone = handle(r)
	}
	self := g.actorName(ev.actor)
	if self == "" || g.src != "github" {
		self = someone
	}
	ip := docIP(r)
	if g.ip >= 0 {
		ip = g.actorName(g.ip)
	}
	ed := pick(r, editorNames)
	src := pick(r, factSources)
	if ev.actor >= 0 && g.actors[ev.actor].role == "source" {
		src = g.actorName(ev.actor)
	}
	pairs = append(pairs, "{E}", g.entName, "{d}", ev.date, "{ind}", ev.inDate, "{Ind}", capFirst(ev.inDate), "{src}", src, "{ip}", ip, "{ed}", ed,
		"{h}", someone, "{u}", self, "{n}", fmt.Sprint(100+r.IntN(9800)), "{k}", fmt.Sprint(1+r.IntN(9)),
		"{rev}", fmt.Sprint(100000000+r.IntN(900000000)))
	return strings.NewReplacer(pairs...).Replace(t)
}

func (g *streamGen) templateFor(c *claim) string {
	if c.mention {
		set := g.sty.mention[c.kind]
		list := set.friendly
		if !c.friendly && len(set.hostile) > 0 && c.kind == kUpdate {
			list = set.hostile
		}
		return pick(g.r, list)
	}
	set := g.sty.claims[c.kind]
	sps := []string{c.key.a.special, c.special}
	if c.kind == kRefine && c.key.a.special == "labels" && c.refineKind != RefineQualifier {
		sps = append(sps, "relabel") // a narrower label replaces the broader one
	}
	if c.key.a.ent == entIssue && c.key.a.special == "" {
		sps[0] = "issuefield"
	}
	for _, sp := range sps {
		if m := g.sty.special[sp]; m != nil {
			if s, ok := m[c.kind]; ok {
				set = s
			}
		}
	}
	list := set.friendly
	if !c.friendly && len(set.hostile) > 0 {
		list = set.hostile
	}
	if c.old == "" {
		var keep []string
		for _, t := range list {
			if !strings.Contains(t, "{o}") {
				keep = append(keep, t)
			}
		}
		if len(keep) > 0 {
			list = keep
		}
	}
	return pick(g.r, list)
}

func (g *streamGen) render() {
	r := g.r
	for _, ev := range g.events {
		var parts []string
		for ci, c := range ev.claims {
			s := g.fill(g.templateFor(c), ev, c)
			if g.src == "wiki" && ci > 0 && strings.HasPrefix(s, "Edit summary:") {
				// One revision has one edit summary: a second fact keeps
				// only its infobox or prose line.
				if i := strings.IndexByte(s, '\n'); i >= 0 {
					s = s[i+1:]
				}
			}
			if g.src == "dyknow" && ev.actor >= 0 && c.kind != kConflict && c.kind.assertive() {
				s = g.fill("According to {src}, ", ev, nil) + lowerFirst(s)
			}
			parts = append(parts, s)
		}
		sep := " "
		if g.src == "wiki" {
			sep = "\n"
		}
		body := strings.Join(parts, sep)
		switch {
		case ev.opening:
			intro := g.fill(fmt.Sprintf("%s when using {e}.", capFirst(g.symptom)), ev, nil)
			env := g.fill("Environment: Python 3.{k} on "+pick(r, []string{"Ubuntu 22.04", "Windows 11", "macOS 14", "Debian 12"})+".", ev, nil)
			if body != "" {
				body += "\n\n"
			}
			ev.text = intro + "\n\n" + body + env
		case len(ev.claims) == 0:
			t := pick(r, g.sty.clutter)
			if g.src == "github" && r.Float64() < 0.03 {
				t = pick(r, []string{"I set HF_TOKEN=hf_" + fakeToken(r, 34) + " before running, same result.",
					"You can reach me at {u}@example.com if you need the logs."})
			}
			ev.text = g.fill(t, ev, nil)
		default:
			if g.src == "github" && r.Float64() < 0.1 {
				body = g.fill("Thanks @{h}. ", ev, nil) + body
			}
			if g.src != "wiki" && r.Float64() < 0.08 {
				body += sep + g.fill(pick(r, g.sty.clutter), ev, nil)
			}
			ev.text = body
		}
		ev.kind = g.eventKind(ev)
	}
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	// Keep names capitalised: only lower a leading article-like word.
	for _, w := range []string{"As ", "In ", "Since "} {
		if strings.HasPrefix(s, w) {
			return strings.ToLower(w[:1]) + s[1:]
		}
	}
	return s
}

func (g *streamGen) eventKind(ev *evPlan) string {
	if ev.opening {
		return "issue_opened"
	}
	switch g.src {
	case "wiki":
		if strings.HasPrefix(ev.text, "Talk:") {
			return "talk"
		}
		return "revision"
	case "dyknow":
		if len(ev.claims) > 0 && ev.claims[0].kind.assertive() {
			return "fact"
		}
		return "passage"
	}
	if len(ev.claims) > 0 {
		c := ev.claims[0]
		switch c.key.a.special {
		case "status":
			switch c.kind {
			case kUpdate:
				return "closed"
			case kRevert:
				return "reopened"
			}
		case "owner":
			if c.kind != kRestate && c.kind.assertive() {
				return "assigned"
			}
		case "labels":
			if c.kind != kRestate && c.kind.assertive() {
				return "labeled"
			}
		}
	}
	return "comment"
}

func (g *streamGen) role(ev *evPlan) string {
	if ev.actor >= 0 {
		return g.actors[ev.actor].role
	}
	switch g.src {
	case "dyknow":
		if ev.kind == "fact" {
			return "kb"
		}
		return "passage"
	}
	return "participant"
}

// stratumSeed mixes (source, stratum, index) into the second PCG word.
func stratumSeed(src string, p esr.Phenomenon, i int) uint64 {
	h := uint64(14695981039346656037)
	for _, s := range []string{src, string(p), fmt.Sprint(i)} {
		for j := 0; j < len(s); j++ {
			h ^= uint64(s[j])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	return splitmix(h)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unitHash maps (seed, parts...) to [0, 1): the extraction-noise draws, so
// the events or keys a given seed loses are nested as the recall knob moves.
func unitHash(seed uint64, parts ...string) float64 {
	h := splitmix(seed)
	for _, s := range parts {
		for j := 0; j < len(s); j++ {
			h ^= uint64(s[j])
			h *= 1099511628211
		}
		h = splitmix(h ^ 0xff)
	}
	return float64(h>>11) / (1 << 53)
}

// sortedEventIDs orders event ids by their position in the stream.
func sortedEventIDs(s *esr.Stream, set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return s.EventIndex(out[i]) < s.EventIndex(out[j]) })
	return out
}
