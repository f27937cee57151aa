// Package robust checks the measurement itself: the render-format and
// abstain-wording ablations (Tables 17 and 19), the abstain calibration and
// permutation tests (Tables 16 and 20), pair-vs-cluster intervals, the
// stale-answer metric, the judge (audit with planted answers, the judge
// term, rejudging), paraphrase robustness, the deployed models'
// assumptions, and the simulated readers' calibration to the paper's
// published numbers with its out-of-sample validation.
package robust
