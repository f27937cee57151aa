package coverage

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Bin is one stream-length bin of the paper's Table 12 (bench.LengthBin).
type Bin = bench.LengthBin

// LengthBins are Table 12's bins (bench.LengthBins).
var LengthBins = bench.LengthBins

// BinOf is bench.LengthBinOf: the index in LengthBins of a stream with n
// events, -1 below the first bin and len(LengthBins) above the last.
func BinOf(n int) int { return bench.LengthBinOf(n) }

// BinCount is the number of streams and QAs in one length bin.
type BinCount struct {
	Bin
	Streams  int            `json:"streams"`
	QAs      int            `json:"qas"`
	BySource map[string]int `json:"qas_by_source"`
}

// MonoSplit splits monotonic QAs into the paper's pure-mono (no deprecated
// evidence; Table 11) and the rest.
type MonoSplit struct {
	PureMono       int `json:"pure_mono"`
	WithDeprecated int `json:"with_deprecated"`
}

// Composition is `esr describe`'s output: the paper's Table 1 (QAs by
// source) broken down by stratum and query type, and the stream-length
// distribution over Table 12's bins.
type Composition struct {
	Streams int `json:"streams"`
	QAs     int `json:"qas"`
	// QAs[source][stratum][query type].
	BySourceStratumQuery map[string]map[string]map[string]int `json:"by_source_stratum_query"`
	BySource             map[string]int                       `json:"by_source"`
	ByStratum            map[string]int                       `json:"by_stratum"`
	ByQueryType          map[string]int                       `json:"by_query_type"`
	Monotonic            map[string]*MonoSplit                `json:"monotonic_split_by_source"`
	StreamsBySource      map[string]int                       `json:"streams_by_source"`
	LengthBins           []*BinCount                          `json:"length_bins"`
	// Streams (and their QAs) outside the bins: fewer than 2 events or more
	// than 70.
	ShortStreams int `json:"streams_under_2_events"`
	LongStreams  int `json:"streams_over_70_events"`
	ShortQAs     int `json:"qas_under_2_events"`
	LongQAs      int `json:"qas_over_70_events"`
}

// Describe computes a benchmark's composition.
func Describe(b *bench.Bench) *Composition {
	c := &Composition{Streams: len(b.Streams), QAs: len(b.QAs),
		BySourceStratumQuery: map[string]map[string]map[string]int{}, BySource: map[string]int{},
		ByStratum: map[string]int{}, ByQueryType: map[string]int{}, Monotonic: map[string]*MonoSplit{},
		StreamsBySource: map[string]int{}}
	for _, bn := range LengthBins {
		c.LengthBins = append(c.LengthBins, &BinCount{Bin: bn, BySource: map[string]int{}})
	}
	binOf := map[string]int{}
	for _, s := range b.Streams {
		src := s.Source
		if src == "" {
			src = "unknown"
		}
		c.StreamsBySource[src]++
		i := BinOf(len(s.Events))
		binOf[s.ID] = i
		switch {
		case i < 0:
			c.ShortStreams++
		case i >= len(LengthBins):
			c.LongStreams++
		default:
			c.LengthBins[i].Streams++
		}
	}
	for i := range b.QAs {
		q := &b.QAs[i]
		src, ph, qt := QASource(b, q), string(q.Phenomenon), string(q.Type())
		m := c.BySourceStratumQuery[src]
		if m == nil {
			m = map[string]map[string]int{}
			c.BySourceStratumQuery[src] = m
		}
		if m[ph] == nil {
			m[ph] = map[string]int{}
		}
		m[ph][qt]++
		c.BySource[src]++
		c.ByStratum[ph]++
		c.ByQueryType[qt]++
		if q.Phenomenon == esr.Monotonic {
			ms := c.Monotonic[src]
			if ms == nil {
				ms = &MonoSplit{}
				c.Monotonic[src] = ms
			}
			if len(q.GoldDeprecatedEventIDs) == 0 {
				ms.PureMono++
			} else {
				ms.WithDeprecated++
			}
		}
		if bi, ok := binOf[q.StreamID]; ok {
			switch {
			case bi < 0:
				c.ShortQAs++
			case bi >= len(LengthBins):
				c.LongQAs++
			default:
				c.LengthBins[bi].QAs++
				c.LengthBins[bi].BySource[src]++
			}
		}
	}
	return c
}

// Text renders the composition as plain-text tables.
func (c *Composition) Text() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	strata := make([]string, 0, len(esr.Phenomena))
	for _, ph := range esr.Phenomena {
		strata = append(strata, string(ph))
	}
	sources := slices.Sorted(maps.Keys(c.BySource))
	p("%d streams, %d QAs\n\n", c.Streams, c.QAs)
	for _, qt := range esr.QueryTypes {
		if c.ByQueryType[string(qt)] == 0 {
			continue
		}
		p("QAs by source × stratum, query type %s\n", qt)
		p("%-20s", "source")
		for _, s := range strata {
			p(" %22s", s)
		}
		p(" %8s\n", "total")
		tot := map[string]int{}
		for _, src := range sources {
			p("%-20s", src)
			row := 0
			for _, s := range strata {
				n := c.BySourceStratumQuery[src][s][string(qt)]
				tot[s] += n
				row += n
				p(" %22d", n)
			}
			p(" %8d\n", row)
		}
		p("%-20s", "total")
		all := 0
		for _, s := range strata {
			p(" %22d", tot[s])
			all += tot[s]
		}
		p(" %8d\n\n", all)
	}
	p("Monotonic QAs: pure-mono (no deprecated evidence) / with deprecated evidence\n")
	for _, src := range slices.Sorted(maps.Keys(c.Monotonic)) {
		p("%-20s %6d / %d\n", src, c.Monotonic[src].PureMono, c.Monotonic[src].WithDeprecated)
	}
	p("\nStream length (events; Table 12 bins, right-closed)\n")
	p("%-8s %-8s %8s %8s", "events", "paper", "streams", "qas")
	for _, src := range sources {
		p(" %20s", src)
	}
	p("\n")
	for _, bc := range c.LengthBins {
		p("%-8s %-8s %8d %8d", bc.Label, bc.Paper, bc.Streams, bc.QAs)
		for _, src := range sources {
			p(" %20d", bc.BySource[src])
		}
		p("\n")
	}
	if c.ShortStreams+c.LongStreams > 0 {
		p("outside the bins: %d streams under 2 events, %d over 70\n", c.ShortStreams, c.LongStreams)
	}
	return w.String()
}
