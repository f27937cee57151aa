#!/usr/bin/python3
"""Reference values for package stats, computed with Python peers.

Run by hand with Debian's interpreter (scipy 1.10, statsmodels 0.13,
scikit-learn 1.2, numpy 1.24):

    /usr/bin/python3 stats/testdata/gen_reference.py > stats/testdata/reference.json

Every expected value carries "by": the Python call (function and arguments)
that produced it. Inputs are generated here from fixed numpy seeds and stored
in the JSON, so the Go tests never need Python.
"""
import json
import math
import sys

import numpy as np
import scipy
import scipy.optimize
import scipy.stats
import sklearn
import sklearn.metrics
import statsmodels
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import normal_sample_size_one_tail
from statsmodels.stats.proportion import proportion_confint

CASES = []


def case(kind, name, inp, **expected):
    CASES.append({"kind": kind, "name": name, "input": inp, "expected": expected})


def ev(value, by):
    """An expected value and the call that produced it."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        value = value.item()
    return {"value": value, "by": by}


def correlated_binary(rng, n, p11, p10, p01):
    """n paired 0/1 outcomes with joint cell probabilities p11, p10, p01."""
    u = rng.random(n)
    a = ((u < p11 + p10)).astype(int)
    b = ((u < p11) | ((u >= p11 + p10) & (u < p11 + p10 + p01))).astype(int)
    return a, b


# ---------------------------------------------------------------- bootstrap
B_REF = 200_000


def bootstrap_case(name, a, b, level, seed, binary):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    d = a - b
    res = scipy.stats.bootstrap(
        (d,), np.mean, n_resamples=B_REF, batch=20_000, vectorized=True,
        method="percentile", confidence_level=level,
        random_state=np.random.default_rng(seed))
    by = (f"scipy.stats.bootstrap((a-b,), np.mean, n_resamples={B_REF}, batch=20000, "
          f"vectorized=True, method='percentile', confidence_level={level}, "
          f"random_state=np.random.default_rng({seed}))")
    case("bootstrap", name,
         {"a": a.tolist(), "b": b.tolist(), "level": level, "binary": binary, "b_ref": B_REF},
         estimate=ev(float(np.mean(d)), "numpy.mean(a-b)"),
         lo=ev(res.confidence_interval.low, by + ".confidence_interval.low"),
         hi=ev(res.confidence_interval.high, by + ".confidence_interval.high"),
         se=ev(res.standard_error, by + ".standard_error"))


rng = np.random.default_rng(20240601)
a, b = correlated_binary(rng, 439, 0.18, 0.228, 0.046)  # reverted-revert-like, .408 vs .226
bootstrap_case("binary_rr_n439", a, b, 0.95, 1, True)
a, b = correlated_binary(rng, 120, 0.30, 0.15, 0.10)
bootstrap_case("binary_n120_level90", a, b, 0.90, 2, True)
a, b = correlated_binary(rng, 60, 0.05, 0.08, 0.02)
bootstrap_case("binary_sparse_n60_level99", a, b, 0.99, 3, True)
a = rng.normal(0.3, 1.0, 80)
b = rng.normal(0.0, 1.0, 80) + 0.5 * a
bootstrap_case("real_normal_n80", a, b, 0.95, 4, False)
a = rng.exponential(1.0, 50)
b = rng.exponential(0.8, 50)
bootstrap_case("real_skewed_n50_level99", a, b, 0.99, 5, False)

# ------------------------------------------------------ exact sign test (binary)
for n11, n10, n01, n00 in [(10, 5, 0, 5), (40, 30, 12, 18), (50, 100, 100, 50),
                           (100, 250, 180, 300), (3000, 1200, 1000, 5000),
                           (0, 3, 4, 0), (20, 0, 1, 0), (0, 60, 1, 0)]:
    m = n10 + n01
    by = f"scipy.stats.binomtest(k={n10}, n={m}, p=0.5, alternative='two-sided').pvalue"
    case("permutation_exact", f"counts_{n11}_{n10}_{n01}_{n00}",
         {"n11": n11, "n10": n10, "n01": n01, "n00": n00},
         p=ev(scipy.stats.binomtest(n10, m, 0.5, alternative="two-sided").pvalue, by),
         estimate=ev((n10 - n01) / (n11 + n10 + n01 + n00), "(n10-n01)/n"))

# The paper's largest stratum (monotonic, n = 12,382; accuracy .34 vs .46).
a, b = correlated_binary(np.random.default_rng(12382), 12382, 0.25, 0.09, 0.21)
n10 = int(np.sum((a == 1) & (b == 0)))
n01 = int(np.sum((a == 0) & (b == 1)))
case("permutation_exact", "stratum_n12382",
     {"n11": int(np.sum((a == 1) & (b == 1))), "n10": n10, "n01": n01,
      "n00": int(np.sum((a == 0) & (b == 0)))},
     p=ev(scipy.stats.binomtest(n10, n10 + n01, 0.5).pvalue,
          f"scipy.stats.binomtest(k={n10}, n={n10 + n01}, p=0.5, alternative='two-sided').pvalue"),
     estimate=ev((n10 - n01) / 12382, "(n10-n01)/n"))

# ----------------------------------------------- Monte Carlo sign-flip test (real)
for name, seed, n, shift in [("real_n14_shift", 7, 14, 0.5), ("real_n12_null", 8, 12, 0.0)]:
    r = np.random.default_rng(seed)
    a = r.normal(shift, 1.0, n)
    b = r.normal(0.0, 1.0, n)
    d = a - b
    signs = 1 - 2 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)
    tstar = np.abs(signs @ d) / n
    t = abs(d.sum()) / n
    p = float(np.mean(tstar >= t - 1e-12 * np.abs(d).sum() / n))
    case("permutation_mc", name, {"a": a.tolist(), "b": b.tolist()},
         p=ev(p, f"numpy: mean over all 2**{n} sign vectors s of |s@(a-b)| >= |sum(a-b)| (exact permutation p)"),
         estimate=ev(float(d.mean()), "numpy.mean(a-b)"))

# --------------------------------------------------------------------- Holm
for name, p, alpha in [
        ("table20_llama", [0.0001, 0.021, 0.067, 1.0], 0.05),
        ("table20_mistral", [0.0001, 0.0001, 0.016, 0.75], 0.05),
        ("unsorted_ties", [0.04, 0.01, 0.03, 0.01, 0.2, 0.0005, 0.9, 0.03], 0.05),
        ("alpha10", [0.02, 0.5, 0.03, 0.001, 0.06], 0.10),
        ("none_rejected", [0.3, 0.2, 0.6], 0.05),
        ("single", [0.049], 0.05)]:
    rej, adj, _, _ = multipletests(p, alpha=alpha, method="holm")
    by = f"statsmodels.stats.multitest.multipletests({p}, alpha={alpha}, method='holm')"
    case("holm", name, {"p": p, "alpha": alpha},
         reject=ev(rej, by + "[0]"), adjusted=ev(adj, by + "[1]"))


# -------------------------------------------------------------------- kappa
def fce_se(table):
    """Fleiss, Cohen & Everitt (1969) large-sample SE, written out independently."""
    t = np.asarray(table, float)
    n = t.sum()
    p = t / n
    r = p.sum(1)  # p_i.
    c = p.sum(0)  # p_.j
    po = np.trace(p)
    pe = float(r @ c)
    k = (po - pe) / (1 - pe)
    K = len(t)
    A = sum(p[i, i] * (1 - (r[i] + c[i]) * (1 - k)) ** 2 for i in range(K))
    Bt = (1 - k) ** 2 * sum(p[i, j] * (c[i] + r[j]) ** 2 for i in range(K) for j in range(K) if i != j)
    C = (k - pe * (1 - k)) ** 2
    return math.sqrt((A + Bt - C) / (n * (1 - pe) ** 2))


def kappa_case(name, r1, r2, level):
    labels = sorted(set(r1) | set(r2))
    table = sklearn.metrics.confusion_matrix(r1, r2, labels=labels)
    k = sklearn.metrics.cohen_kappa_score(r1, r2)
    sm = cohens_kappa(table)
    se = fce_se(table)
    assert abs(se - sm.std_kappa) < 1e-12, (se, sm.std_kappa)  # statsmodels == FCE 1969
    assert abs(k - sm.kappa) < 1e-12
    z = scipy.stats.norm.ppf((1 + level) / 2)
    smby = f"statsmodels.stats.inter_rater.cohens_kappa(sklearn.metrics.confusion_matrix(r1, r2, labels={labels}))"
    case("kappa", name, {"r1": list(r1), "r2": list(r2), "level": level},
         kappa=ev(k, "sklearn.metrics.cohen_kappa_score(r1, r2)"),
         se=ev(sm.std_kappa, smby + ".std_kappa"),
         se_fce=ev(se, "fce_se(table) in gen_reference.py (Fleiss, Cohen & Everitt 1969 formula)"),
         lo=ev(sm.kappa - z * sm.std_kappa, smby + f": kappa - scipy.stats.norm.ppf({(1 + level) / 2}) * std_kappa"),
         hi=ev(sm.kappa + z * sm.std_kappa, smby + f": kappa + scipy.stats.norm.ppf({(1 + level) / 2}) * std_kappa"))


def noisy_labels(rng, cats, n, keep, probs):
    r1 = rng.choice(cats, size=n, p=probs)
    r2 = np.where(rng.random(n) < keep, r1, rng.choice(cats, size=n, p=probs))
    return [str(x) for x in r1], [str(x) for x in r2]


rng = np.random.default_rng(150)
phen = ["monotonic", "refines", "reverted_revert", "cross_source_conflict"]
r1, r2 = noisy_labels(rng, phen, 150, 0.55, [0.4, 0.2, 0.25, 0.15])
kappa_case("phenomena_n150", r1, r2, 0.95)
r1, r2 = noisy_labels(rng, ["a", "b", "c"], 80, 0.7, [0.5, 0.3, 0.2])
kappa_case("three_n80_level90", r1, r2, 0.90)
r1, r2 = noisy_labels(rng, ["x", "y"], 500, 0.3, [0.85, 0.15])
r2[0] = "z"  # a label only rater 2 uses
kappa_case("skewed_extra_label_n500", r1, r2, 0.99)
kappa_case("near_perfect_n8", ["a", "b", "a", "c", "b", "a", "c", "a"], ["a", "b", "a", "c", "b", "a", "c", "b"], 0.95)

# ------------------------------------------------------------------- Wilson
for k, n, level in [(0, 10, 0.95), (10, 10, 0.95), (3, 10, 0.95), (45, 100, 0.90),
                    (585, 609, 0.95), (1770, 2055, 0.99), (1, 1, 0.5)]:
    lo, hi = proportion_confint(k, n, alpha=1 - level, method="wilson")
    by = f"statsmodels.stats.proportion.proportion_confint({k}, {n}, alpha=1-{level}, method='wilson')"
    case("wilson", f"k{k}_n{n}_level{level}", {"k": k, "n": n, "level": level},
         lo=ev(lo, by + "[0]"), hi=ev(hi, by + "[1]"))

# ------------------------------------------------------------------ entropy
for name, counts in [("uniform4", [5, 5, 5, 5]), ("zeros", [10, 0, 3, 0, 1]),
                     ("single", [7]), ("fractional", [0.5, 1.5, 2.0]),
                     ("relations500", [180, 120, 90, 70, 40])]:
    c = np.asarray(counts, float)
    h = scipy.stats.entropy(c, base=2)
    m = int(np.sum(c > 0))
    case("entropy", name, {"counts": counts},
         h=ev(h, f"scipy.stats.entropy({counts}, base=2)"),
         h_mm=ev(h + (m - 1) / (2 * c.sum() * math.log(2)),
                 f"scipy.stats.entropy({counts}, base=2) + (m-1)/(2*N*ln 2), m={m}, N={c.sum()}"))


def mi_expected(x, y):
    table = scipy.stats.contingency.crosstab(x, y).count
    def hmm(counts):
        counts = np.asarray(counts, float).ravel()
        m = int(np.sum(counts > 0))
        return scipy.stats.entropy(counts, base=2) + (m - 1) / (2 * counts.sum() * math.log(2))
    hx = scipy.stats.entropy(table.sum(1), base=2)
    hy = scipy.stats.entropy(table.sum(0), base=2)
    hxy = scipy.stats.entropy(table.ravel(), base=2)
    mi = sklearn.metrics.mutual_info_score(x, y) / math.log(2)
    assert abs(mi - (hx + hy - hxy)) < 1e-12
    tby = "scipy.stats.entropy(crosstab(x, y).count{}, base=2)"
    mm = "scipy.stats.entropy(...) + (m-1)/(2*N*ln 2) on crosstab(x, y).count{}"
    return dict(
        table=ev(table, "scipy.stats.contingency.crosstab(x, y).count"),
        hx=ev(hx, tby.format(".sum(1)")), hy=ev(hy, tby.format(".sum(0)")),
        hxy=ev(hxy, tby.format(".ravel()")),
        mi=ev(mi, "sklearn.metrics.mutual_info_score(x, y) / math.log(2)"),
        hx_mm=ev(hmm(table.sum(1)), mm.format(".sum(1)")),
        hy_mm=ev(hmm(table.sum(0)), mm.format(".sum(0)")),
        hxy_mm=ev(hmm(table), mm.format("")),
        mi_mm=ev(hmm(table.sum(1)) + hmm(table.sum(0)) - hmm(table), "hx_mm + hy_mm - hxy_mm"))


rng = np.random.default_rng(500)
rel = ["same_state", "refines", "supersedes", "contradicts", "unrelated"]
y = rng.choice(rel, size=500, p=[0.36, 0.24, 0.18, 0.14, 0.08])
x = np.where(rng.random(500) < 0.3, y, rng.choice(rel[:4], size=500))
case("mi", "relations_n500", {"x": [str(v) for v in x], "y": [str(v) for v in y]}, **mi_expected(x, y))
x = rng.integers(0, 3, 40)
y = (x + rng.integers(0, 2, 40)) % 4
case("mi", "ints_n40", {"x": [str(v) for v in x], "y": [str(v) for v in y]}, **mi_expected(x, y))


# ------------------------------------------------------ conditional MI
def cmi_case(name, x, y, z):
    x, y, z = np.asarray(x), np.asarray(y), np.asarray(z)
    n = len(x)
    cmi = 0.0
    for v in np.unique(z):
        g = z == v
        cmi += g.sum() / n * sklearn.metrics.mutual_info_score(x[g], y[g]) / math.log(2)
    case("cmi", name, {"x": [str(v) for v in x], "y": [str(v) for v in y], "z": [str(v) for v in z]},
         cmi=ev(cmi, "sum over z of (n_z/n) * sklearn.metrics.mutual_info_score(x[z==v], y[z==v]) / math.log(2)"),
         cells=ev(int(len(np.unique(z))), "len(numpy.unique(z))"))


rng = np.random.default_rng(2607)
z = rng.integers(0, 4, 300)
y = rng.integers(0, 3, 300)
x = np.where(rng.random(300) < 0.6, (y + z) % 3, rng.integers(0, 3, 300))
cmi_case("xor_like_n300", x, y, z)


# --------------------------------------------------------------------- Fano
def fano_ref(H, I, K, L):
    f = lambda pe: ((-pe * math.log2(pe) - (1 - pe) * math.log2(1 - pe) if 0 < pe < 1 else 0.0)
                    + pe * math.log2(K - L) + (1 - pe) * math.log2(L) - (H - I))
    if H - I <= math.log2(L):
        return 0.0
    return scipy.optimize.brentq(f, 0.0, 1 - L / K, xtol=1e-15, rtol=4 * np.finfo(float).eps)


for H, I, K, L in [(1.89, 0.216, 5, 1), (1.89, 0.216, 5, 2), (1.0, 0.2, 2, 1),
                   (3.0, 0.5, 10, 3), (0.5, 0.7, 4, 1), (2.2, 0.1, 5, 1)]:
    by = (f"scipy.optimize.brentq(lambda pe: h(pe) + pe*log2({K}-{L}) + (1-pe)*log2({L}) - ({H}-{I}), "
          f"0, 1-{L}/{K}, xtol=1e-15)")
    case("fano", f"H{H}_I{I}_K{K}_L{L}", {"H": H, "I": I, "K": K, "L": L},
         pe=ev(fano_ref(H, I, K, L), by),
         weak=ev(max(0.0, (H - I - 1) / math.log2(K)), f"max(0, ({H}-{I}-1)/math.log2({K}))"))

# -------------------------------------------------------------- calibration
rng = np.random.default_rng(16)
gold = rng.random(200) < 0.2
dec = np.where(rng.random(200) < 0.75, gold, rng.random(200) < 0.3)
table = sklearn.metrics.confusion_matrix(dec, gold, labels=[False, True])
agree = int(np.sum(dec == gold))
lo, hi = proportion_confint(agree, 200, alpha=0.05, method="wilson")
sm = cohens_kappa(table)
z = scipy.stats.norm.ppf(0.975)
case("calibration", "abstain_n200",
     {"abstained": dec.tolist(), "gold": gold.tolist(), "level": 0.95},
     table=ev(table, "sklearn.metrics.confusion_matrix(abstained, gold, labels=[False, True])"),
     agreement=ev(agree / 200, "numpy.mean(abstained == gold)"),
     agreement_lo=ev(lo, f"statsmodels.stats.proportion.proportion_confint({agree}, 200, alpha=0.05, method='wilson')[0]"),
     agreement_hi=ev(hi, f"statsmodels.stats.proportion.proportion_confint({agree}, 200, alpha=0.05, method='wilson')[1]"),
     kappa=ev(sklearn.metrics.cohen_kappa_score(dec, gold), "sklearn.metrics.cohen_kappa_score(abstained, gold)"),
     kappa_lo=ev(sm.kappa - z * sm.std_kappa, "statsmodels.stats.inter_rater.cohens_kappa(table): kappa - norm.ppf(0.975)*std_kappa"),
     kappa_hi=ev(sm.kappa + z * sm.std_kappa, "statsmodels.stats.inter_rater.cohens_kappa(table): kappa + norm.ppf(0.975)*std_kappa"))

# -------------------------------------------------------- cluster bootstrap
def cluster_bootstrap(d, cluster, n_resamples, level, seed, batch=10_000):
    """Percentile cluster bootstrap of the mean of d, written out in numpy.

    Each resample draws G cluster indices uniformly with replacement
    (np.random.default_rng(seed).integers(0, G, size=(batch, G))) and keeps
    all their rows; its statistic is the ratio mean S[idx].sum(1) / C[idx].sum(1)
    with S, C the per-cluster sums and row counts (np.bincount). The interval is
    np.percentile(stats, [100*(1-level)/2, 100*(1+level)/2]) (numpy's default
    linear method, as scipy.stats.bootstrap(method='percentile') uses)."""
    _, inv = np.unique(np.asarray(cluster), return_inverse=True)
    S = np.bincount(inv, weights=d)
    C = np.bincount(inv).astype(float)
    G = len(S)
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, batch):
        k = min(batch, n_resamples - start)
        idx = rng.integers(0, G, size=(k, G))
        out[start:start + k] = S[idx].sum(1) / C[idx].sum(1)
    lo, hi = np.percentile(out, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    return lo, hi, out.std(ddof=1), G


def cluster_bootstrap_case(name, a, b, cluster, level, seed, binary):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    d = a - b
    lo, hi, se, G = cluster_bootstrap(d, cluster, B_REF, level, seed)
    by = (f"cluster_bootstrap(a-b, cluster, n_resamples={B_REF}, level={level}, seed={seed}) in "
          f"gen_reference.py: numpy.random.default_rng({seed}).integers(0, G={G}, size=(10000, G)) "
          f"cluster draws per batch, ratio mean S[idx].sum(1)/C[idx].sum(1), numpy.percentile")
    case("cluster_bootstrap", name,
         {"a": a.tolist(), "b": b.tolist(), "cluster": list(cluster), "level": level,
          "binary": binary, "b_ref": B_REF},
         estimate=ev(float(np.mean(d)), "numpy.mean(a-b)"),
         clusters=ev(G, "len(numpy.unique(cluster))"),
         lo=ev(lo, by + ": lower percentile"),
         hi=ev(hi, by + ": upper percentile"),
         se=ev(se, by + ": numpy.std(stats, ddof=1)"))


# 240 questions x 5 reader families: each question has a difficulty shared by
# its five rows, so the rows' outcomes (and differences) are positively
# correlated within a question.
rng = np.random.default_rng(24005)
G, M = 240, 5
u = rng.normal(0, 1.2, G)  # question difficulty
v = rng.normal(0, 0.8, G)  # question-specific advantage of B
pa = 1 / (1 + np.exp(-(0.6 + u)))
pb = 1 / (1 + np.exp(-(0.1 + u + v)))
a = (rng.random((G, M)) < pa[:, None]).astype(int).ravel()
b = (rng.random((G, M)) < pb[:, None]).astype(int).ravel()
cl = [f"q{g:03d}" for g in range(G) for _ in range(M)]
cluster_bootstrap_case("binary_q240x5", a, b, cl, 0.95, 11, True)
# Unequal cluster sizes (1 to 9 rows), real-valued outcomes, rows shuffled so a
# cluster's rows are not contiguous: the ratio mean differs from the mean of
# cluster means.
G = 150
sizes = rng.integers(1, 10, G)
eff = rng.normal(0.1, 0.5, G)
cl = np.repeat([f"c{g}" for g in range(G)], sizes)
a = np.repeat(eff, sizes) + rng.normal(0.2, 1.0, sizes.sum())
b = rng.normal(0.0, 1.0, sizes.sum()) + 0.3 * a
perm = rng.permutation(sizes.sum())
cluster_bootstrap_case("real_unequal_g150_level90", a[perm], b[perm], [str(c) for c in cl[perm]], 0.90, 12, False)
# Many clusters of few types (1,500 questions x 5 binary rows: at most 11
# distinct (sum, size) types), where PairedClusterBootstrap draws the types'
# multinomial counts instead of cluster indices; numpy still draws indices.
rng_t = np.random.default_rng(24006)
G, M = 1500, 5
u = rng_t.normal(0, 1.2, G)
v = rng_t.normal(0, 0.8, G)
pa = 1 / (1 + np.exp(-(0.6 + u)))
pb = 1 / (1 + np.exp(-(0.1 + u + v)))
a = (rng_t.random((G, M)) < pa[:, None]).astype(int).ravel()
b = (rng_t.random((G, M)) < pb[:, None]).astype(int).ravel()
cl = [f"q{g:04d}" for g in range(G) for _ in range(M)]
cluster_bootstrap_case("binary_q1500x5_types", a, b, cl, 0.95, 13, True)


# ------------------------------------------------ McNemar minimum detectable effect
def connor_n(delta, pd, alpha, power):
    """Connor (1987) sample size for McNemar's test."""
    za = scipy.stats.norm.ppf(1 - alpha / 2)
    zb = scipy.stats.norm.ppf(power)
    return (za * math.sqrt(pd) + zb * math.sqrt(pd - delta ** 2)) ** 2 / delta ** 2


def sm_n(delta, pd, alpha, power):
    return normal_sample_size_one_tail(delta, power, alpha / 2, std_null=math.sqrt(pd),
                                       std_alternative=math.sqrt(pd - delta ** 2))


for n, pd, alpha, power in [(439, 0.28, 0.05, 0.8), (1200, 0.2, 0.05, 0.9), (12382, 0.30, 0.05, 0.8),
                            (100, 0.5, 0.01, 0.8), (50, 0.3, 0.05, 0.5), (30, 1.0, 0.05, 0.95),
                            (60, 0.1, 0.05, 0.8), (20, 0.2, 0.01, 0.9)]:
    kw = dict(xtol=1e-15, rtol=4 * np.finfo(float).eps)
    if connor_n(pd, pd, alpha, power) > n:  # even delta = p_d needs more pairs: no solution
        mde = mde_sm = None
    else:
        mde = scipy.optimize.brentq(lambda d: connor_n(d, pd, alpha, power) - n, pd * 1e-9, pd, **kw)
        mde_sm = scipy.optimize.brentq(lambda d: sm_n(d, pd, alpha, power) - n, pd * 1e-9, pd, **kw)
        assert abs(mde - mde_sm) < 1e-12, (mde, mde_sm)
    cby = (f"scipy.optimize.brentq(lambda d: (norm.ppf(1-{alpha}/2)*sqrt({pd}) + norm.ppf({power})*sqrt({pd}-d**2))**2/d**2"
           f" - {n}, {pd}*1e-9, {pd}, xtol=1e-15) (Connor 1987; scipy.stats.norm.ppf)")
    sby = (f"scipy.optimize.brentq(lambda d: statsmodels.stats.power.normal_sample_size_one_tail(d, {power}, {alpha}/2, "
           f"std_null=sqrt({pd}), std_alternative=sqrt({pd}-d**2)) - {n}, {pd}*1e-9, {pd}, xtol=1e-15)")
    if mde is None:
        cby = f"none: Connor's n at delta = p_d is {connor_n(pd, pd, alpha, power):.6g} > {n}"
        sby = f"none: normal_sample_size_one_tail at delta = p_d is {sm_n(pd, pd, alpha, power):.6g} > {n}"
    case("mcnemar_mde", f"n{n}_pd{pd}_alpha{alpha}_power{power}",
         {"n": n, "discordant": pd, "alpha": alpha, "power": power},
         mde=ev(mde, cby), mde_statsmodels=ev(mde_sm, sby))

json.dump({
    "generator": "stats/testdata/gen_reference.py",
    "versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
                 "statsmodels": statsmodels.__version__, "sklearn": sklearn.__version__},
    "cases": CASES,
}, sys.stdout, indent=1)
sys.stdout.write("\n")
