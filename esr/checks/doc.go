// Package checks asks whether the measurement itself holds: the
// render-format and abstain-wording ablations (Tables 17 and 19), the
// abstain calibration and permutation tests (Tables 16 and 20), pair- vs
// cluster-bootstrap intervals, the stale-answer metric, the judge (audit
// with planted answers, the judge term, rejudging), and the simulated
// readers' calibration to the paper's published numbers with its
// identifiability and its out-of-sample validation.
package checks
