package eval

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/memory"
)

// CompareVariants is Compare for one memory under two conditions: the
// paired difference (memory under a) − (memory under b) over rows kept by
// f, pairs matched by question and reader family. The comparison's A and B
// name the memory with each condition ("fine-ledger [single-valued-key]";
// the main condition's name is the memory's alone), and its term's label
// is "A − B".
func CompareVariants(rows []Outcome, m memory.Spec, a, b Variant, f Filter, opt StatOptions) (Comparison, error) {
	an, bn := variantName(m, a), variantName(m, b)
	if an == bn {
		panic("eval: CompareVariants of a variant with itself")
	}
	// Relabel the two arms as two memories of one condition, so that
	// Compare pairs them by question and family.
	var arms []Outcome
	for i := range rows {
		o := rows[i]
		if o.Memory != m || f != nil && !f(&o) {
			continue
		}
		switch v := o.Variant; {
		case v.Equal(a):
			o.Memory = an
		case v.Equal(b):
			o.Memory = bn
		default:
			continue
		}
		o.Variant = Variant{}
		arms = append(arms, o)
	}
	c, err := Compare(arms, Term{Label: an.String() + " − " + bn.String(), A: an, B: bn}, nil, opt)
	if err != nil {
		return c, fmt.Errorf("%s: %w", m, err)
	}
	return c, nil
}

// variantName is m under v, as CompareVariants names its arms: a spec
// whose class is the arm's label.
func variantName(m memory.Spec, v Variant) memory.Spec {
	if v.IsZero() {
		return m
	}
	return memory.Spec{Class: memory.Class(m.String() + " [" + v.String() + "]")}
}
