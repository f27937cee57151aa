#!/usr/bin/python3
"""Time scipy.stats.bootstrap on data like BenchmarkPairedBootstrap* (stats/bench_test.go).

    /usr/bin/python3 stats/testdata/bench_scipy.py [repeats]

The data mirror the Go benchmarks' stratum(): n = 12,382 paired binary outcomes,
accuracy 0.34 (A) vs 0.46 (B), joint cells p11 = .25, p10 = .09, p01 = .21
(numpy's generator, so not the identical draws, but the same n and mix; the
bootstrap's cost depends only on n and B). The timed call is the percentile
bootstrap of the mean paired difference with B = 10,000 resamples, vectorized,
single batch (scipy's default: all B x n indices at once), and with batch=1000
for reference. Prints the best of `repeats` runs in seconds, as JSON.
"""
import json
import sys
import time

import numpy as np
import scipy
import scipy.stats

N, B = 12_382, 10_000
repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5

rng = np.random.default_rng(12382)
u = rng.random(N)
a = (u < 0.25 + 0.09).astype(float)
b = ((u < 0.25) | ((u >= 0.34) & (u < 0.55))).astype(float)
d = a - b


def run(batch):
    return scipy.stats.bootstrap((d,), np.mean, n_resamples=B, vectorized=True, batch=batch,
                                 method="percentile", confidence_level=0.95,
                                 random_state=np.random.default_rng(1))


out = {"scipy": scipy.__version__, "numpy": np.__version__, "n": N, "B": B,
       "mean_a": a.mean(), "mean_b": b.mean()}
for batch in (None, 1000):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = run(batch)
        best = min(best, time.perf_counter() - t0)
    out[f"best_seconds_batch_{batch}"] = best
    out[f"ci_batch_{batch}"] = [res.confidence_interval.low, res.confidence_interval.high]
json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
