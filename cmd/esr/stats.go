package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/stats"
)

func init() {
	register("stats", "the paper's statistics (bootstrap, permutation, holm, kappa, mi, fano, wilson, mde)", runStats)
}

type statsSub struct {
	name, synopsis, summary string
	run                     func(args []string, stdout, stderr io.Writer) error
}

// statsSubs lists the sub-subcommands of "esr stats" in usage order.
var statsSubs []statsSub

func init() {
	statsSubs = []statsSub{
		{"bootstrap", "--pairs FILE.csv [--cluster COLUMN] [--B 10000 (at most 1000000)] [--seed 1] [--level 0.95]",
			"percentile CI of mean(a−b) over pairs (CSV header a,b); --cluster resamples whole clusters", runStatsBootstrap},
		{"permutation", "--pairs FILE.csv [--B N (at most 1000000)] [--seed 1]",
			"two-sided paired permutation test (exact for 0/1 pairs unless --B)", runStatsPermutation},
		{"holm", "[--alpha 0.05] P1 P2 ...", "Holm–Bonferroni rejections and adjusted p-values", runStatsHolm},
		{"kappa", "--pairs FILE.csv [--level 0.95]", "Cohen's κ with its CI (CSV header r1,r2)", runStatsKappa},
		{"mi", "--pairs FILE.csv", "entropies and mutual information in bits (CSV header x,y)", runStatsMI},
		{"fano", "--H BITS --I BITS --K N [--list 1]", "Fano lower bound on error (and the weakened form)", runStatsFano},
		{"wilson", "--k K --n N [--level 0.95]", "Wilson score interval for k/n", runStatsWilson},
		{"mde", "--n N --discordant P [--alpha 0.05] [--power 0.8]",
			"minimum detectable difference of McNemar's test for n binary pairs (Connor 1987)", runStatsMDE},
	}
}

func statsUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: esr stats SUBCOMMAND [flags]   (esr stats SUBCOMMAND --help for its flags)")
	fmt.Fprintln(w, "\nEach subcommand prints one JSON object on stdout.\n\nsubcommands:")
	for _, s := range statsSubs {
		fmt.Fprintf(w, "  %-12s %s\n", s.name, s.summary)
	}
}

func runStats(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		statsUsage(stderr)
		return errors.New("missing subcommand")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		statsUsage(stdout)
		return errHelp
	}
	for _, s := range statsSubs {
		if s.name == args[0] {
			return s.run(args[1:], stdout, stderr)
		}
	}
	names := make([]string, len(statsSubs))
	for i, s := range statsSubs {
		names[i] = s.name
	}
	return fmt.Errorf("unknown subcommand %q (want one of %s)", args[0], strings.Join(names, ", "))
}

// newStatsFlags makes the FlagSet of "esr stats NAME" with a usage line.
func newStatsFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("stats "+name, stderr)
	for _, s := range statsSubs {
		if s.name == name {
			fs.Usage = func() {
				fmt.Fprintf(fs.Output(), "usage: esr stats %s %s\n\n%s.\n\nflags:\n", name, s.synopsis, s.summary)
				fs.PrintDefaults()
			}
		}
	}
	return fs
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

func checkStatsLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("--level %v outside (0, 1)", level)
	}
	return nil
}

// maxResamples bounds --B. Each resample keeps a number in memory and
// costs a pass over the pairs, so --B 2000000000 took 8.6 GB within a
// minute; a million resamples already put a percentile bound's Monte
// Carlo error far below the digits any table reports (the paper uses
// 10,000).
const maxResamples = 1_000_000

// checkResamples refuses a --B outside 1 to maxResamples.
func checkResamples(B int) error {
	if B < 1 || B > maxResamples {
		return fmt.Errorf("--B %d: want 1 to %d resamples", B, maxResamples)
	}
	return nil
}

func writeStatsJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	return enc.Encode(v)
}

func runStatsBootstrap(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("bootstrap", stderr)
	pairs := fs.String("pairs", "", "CSV file with header a,b: one pair per row, 0/1 or real numbers (required)")
	B := fs.Int("B", stats.DefaultResamples, "number of bootstrap resamples, 1 to 1000000")
	seed := fs.Uint64("seed", 1, "seed of the random generator")
	level := fs.Float64("level", 0.95, "confidence level")
	clusterCol := fs.String("cluster", "", "CSV column naming each row's cluster (e.g. the question): resample whole clusters")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	if err := requireFlags(fs, "pairs"); err != nil {
		return err
	}
	if err := checkResamples(*B); err != nil {
		return err
	}
	if err := checkStatsLevel(*level); err != nil {
		return err
	}
	if flagSet(fs, "cluster") {
		c := strings.TrimSpace(*clusterCol)
		if c == "" || strings.EqualFold(c, "a") || strings.EqualFold(c, "b") {
			return fmt.Errorf("--cluster %q must name a CSV column other than a and b", *clusterCol)
		}
	}
	var (
		ci       stats.BootstrapCI
		interval string
		err      error
	)
	if *clusterCol != "" {
		a, b, cluster, rerr := readFloatPairsCluster(*pairs, "a", "b", strings.TrimSpace(*clusterCol))
		if rerr != nil {
			return rerr
		}
		ci, err = stats.PairedClusterBootstrap(a, b, cluster, *B, *level, *seed)
		interval = "cluster"
	} else {
		a, b, rerr := readFloatPairs(*pairs, "a", "b")
		if rerr != nil {
			return rerr
		}
		boot := stats.PairedBootstrap
		if stats.IsBinary(a) && stats.IsBinary(b) {
			boot = stats.PairedBootstrapBinary // same distribution, far cheaper
		}
		ci, err = boot(a, b, *B, *level, *seed)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", *pairs, err)
	}
	// clusters and interval appear only with --cluster, so the unclustered
	// output is unchanged.
	return writeStatsJSON(stdout, struct {
		N        int     `json:"n"`
		Estimate float64 `json:"estimate"`
		Lo       float64 `json:"lo"`
		Hi       float64 `json:"hi"`
		B        int     `json:"B"`
		Seed     uint64  `json:"seed"`
		Level    float64 `json:"level"`
		Clusters int     `json:"clusters,omitempty"`
		Interval string  `json:"interval,omitempty"`
	}{ci.N, ci.Estimate, ci.Lo, ci.Hi, ci.B, ci.Seed, ci.Level, ci.Clusters, interval})
}

func runStatsPermutation(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("permutation", stderr)
	pairs := fs.String("pairs", "", "CSV file with header a,b: one pair per row, 0/1 or real numbers (required)")
	B := fs.Int("B", stats.DefaultResamples, "Monte Carlo sign flips, 1 to 1000000; 0/1 pairs use the exact test unless --B is given")
	seed := fs.Uint64("seed", 1, "seed of the Monte Carlo sign flips")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	if err := requireFlags(fs, "pairs"); err != nil {
		return err
	}
	if err := checkResamples(*B); err != nil {
		return err
	}
	a, b, err := readFloatPairs(*pairs, "a", "b")
	if err != nil {
		return err
	}
	var r stats.PermutationResult
	if stats.IsBinary(a) && stats.IsBinary(b) && !flagSet(fs, "B") {
		r, err = stats.PairedPermutationExact(a, b)
	} else {
		r, err = stats.PairedPermutation(a, b, *B, *seed)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", *pairs, err)
	}
	return writeStatsJSON(stdout, struct {
		N        int     `json:"n"`
		N10      int     `json:"n10"`
		N01      int     `json:"n01"`
		Estimate float64 `json:"estimate"`
		P        float64 `json:"p"`
		Exact    bool    `json:"exact"`
	}{r.N, r.N10, r.N01, r.Estimate, r.P, r.Exact})
}

func runStatsHolm(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("holm", stderr)
	alpha := fs.Float64("alpha", 0.05, "family-wise error rate")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !(*alpha > 0 && *alpha < 1) {
		return fmt.Errorf("--alpha %v outside (0, 1)", *alpha)
	}
	if fs.NArg() == 0 {
		return errors.New("no p-values given (usage: esr stats holm [--alpha 0.05] P1 P2 ...)")
	}
	p := make([]float64, fs.NArg())
	for i, s := range fs.Args() {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) {
			return fmt.Errorf("argument %d: %q is not a number", i+1, s)
		}
		if v < 0 || v > 1 {
			return fmt.Errorf("argument %d: p-value %q outside [0, 1]", i+1, s)
		}
		p[i] = v
	}
	reject, adjusted, err := stats.Holm(p, *alpha)
	if err != nil {
		return err
	}
	return writeStatsJSON(stdout, struct {
		Reject   []bool    `json:"reject"`
		Adjusted []float64 `json:"adjusted"`
	}{reject, adjusted})
}

func runStatsKappa(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("kappa", stderr)
	pairs := fs.String("pairs", "", "CSV file with header r1,r2: the two raters' labels for one item per row (required)")
	level := fs.Float64("level", 0.95, "confidence level of the interval")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	if err := requireFlags(fs, "pairs"); err != nil {
		return err
	}
	if err := checkStatsLevel(*level); err != nil {
		return err
	}
	r1, r2, err := readLabelPairs(*pairs, "r1", "r2")
	if err != nil {
		return err
	}
	k, err := stats.CohenKappa(r1, r2, *level)
	if err != nil {
		return fmt.Errorf("%s: %w", *pairs, err)
	}
	return writeStatsJSON(stdout, struct {
		N     int     `json:"n"`
		Kappa float64 `json:"kappa"`
		Lo    float64 `json:"lo"`
		Hi    float64 `json:"hi"`
	}{len(r1), k.Kappa, k.Lo, k.Hi})
}

func runStatsMI(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("mi", stderr)
	pairs := fs.String("pairs", "", "CSV file with header x,y: one labelled pair per row (required)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	if err := requireFlags(fs, "pairs"); err != nil {
		return err
	}
	x, y, err := readLabelPairs(*pairs, "x", "y")
	if err != nil {
		return err
	}
	m, err := stats.MutualInformationLabels(x, y)
	if err != nil {
		return fmt.Errorf("%s: %w", *pairs, err)
	}
	return writeStatsJSON(stdout, struct {
		N     int     `json:"n"`
		HX    float64 `json:"hx"`
		HY    float64 `json:"hy"`
		HXY   float64 `json:"hxy"`
		MI    float64 `json:"mi"`
		HXMM  float64 `json:"hx_mm"`
		HYMM  float64 `json:"hy_mm"`
		HXYMM float64 `json:"hxy_mm"`
		MIMM  float64 `json:"mi_mm"`
	}{len(x), m.HX, m.HY, m.HXY, m.MI, m.HXMM, m.HYMM, m.HXYMM, m.MIMM})
}

func runStatsFano(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("fano", stderr)
	H := fs.Float64("H", 0, "entropy H(Y) of the label in bits (required)")
	I := fs.Float64("I", 0, "mutual information I(Ŷ;Y) in bits (required)")
	K := fs.Int("K", 0, "number of label values, ≥ 2 (required)")
	list := fs.Int("list", 1, "list size L (1 = ordinary Fano)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	for _, name := range []string{"H", "I", "K"} {
		if !flagSet(fs, name) {
			return fmt.Errorf("--%s is required", name)
		}
	}
	if math.IsNaN(*H) || math.IsInf(*H, 0) || math.IsNaN(*I) || math.IsInf(*I, 0) {
		return fmt.Errorf("--H and --I must be finite numbers (got %v, %v)", *H, *I)
	}
	if *K < 2 {
		return fmt.Errorf("--K %d < 2", *K)
	}
	if *list < 1 || *list >= *K {
		return fmt.Errorf("--list %d outside [1, K−1 = %d]", *list, *K-1)
	}
	pe, err := stats.FanoListBound(*H, *I, *K, *list)
	if err != nil {
		return err
	}
	return writeStatsJSON(stdout, struct {
		Pe   float64 `json:"pe"`
		Weak float64 `json:"weak"`
	}{pe, stats.FanoWeakBound(*H, *I, *K)})
}

func runStatsWilson(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("wilson", stderr)
	k := fs.Int("k", -1, "number of successes (required)")
	n := fs.Int("n", 0, "number of trials, ≥ 1 (required)")
	level := fs.Float64("level", 0.95, "confidence level")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	for _, name := range []string{"k", "n"} {
		if !flagSet(fs, name) {
			return fmt.Errorf("--%s is required", name)
		}
	}
	if *n < 1 {
		return fmt.Errorf("--n %d < 1", *n)
	}
	if *k < 0 || *k > *n {
		return fmt.Errorf("--k %d outside [0, n = %d]", *k, *n)
	}
	if err := checkStatsLevel(*level); err != nil {
		return err
	}
	lo, hi := stats.WilsonInterval(*k, *n, *level)
	return writeStatsJSON(stdout, struct {
		Lo float64 `json:"lo"`
		Hi float64 `json:"hi"`
	}{lo, hi})
}

func runStatsMDE(args []string, stdout, stderr io.Writer) error {
	fs := newStatsFlags("mde", stderr)
	n := fs.Int("n", 0, "number of pairs, ≥ 1 (required)")
	discordant := fs.Float64("discordant", 0, "expected proportion of discordant pairs p10 + p01, in (0, 1] (required)")
	alpha := fs.Float64("alpha", 0.05, "two-sided significance level")
	power := fs.Float64("power", 0.8, "power to detect the difference")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	for _, name := range []string{"n", "discordant"} {
		if !flagSet(fs, name) {
			return fmt.Errorf("--%s is required", name)
		}
	}
	if *n < 1 {
		return fmt.Errorf("--n %d < 1", *n)
	}
	if !(*discordant > 0 && *discordant <= 1) {
		return fmt.Errorf("--discordant %v outside (0, 1]", *discordant)
	}
	if !(*alpha > 0 && *alpha < 1) {
		return fmt.Errorf("--alpha %v outside (0, 1)", *alpha)
	}
	if !(*power > 0 && *power < 1) {
		return fmt.Errorf("--power %v outside (0, 1)", *power)
	}
	mde, err := stats.PairedBinaryMDE(*n, *discordant, *alpha, *power)
	if err != nil {
		return err
	}
	return writeStatsJSON(stdout, struct {
		N          int     `json:"n"`
		Discordant float64 `json:"discordant"`
		Alpha      float64 `json:"alpha"`
		Power      float64 `json:"power"`
		MDE        float64 `json:"mde"`
	}{*n, *discordant, *alpha, *power, mde})
}
