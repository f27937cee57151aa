package eval

import "fmt"

// CompareVariants is Compare for one memory under two conditions: the
// paired difference (memory under a) − (memory under b) over rows kept by
// f, pairs matched by question and reader family. The comparison's A and B
// name the memory with each condition ("fine-ledger [single-valued-key]";
// the main condition's name is the memory's alone).
func CompareVariants(rows []Outcome, label, memory string, a, b Variant, f Filter, opt StatOptions) (Comparison, error) {
	an, bn := variantName(memory, a), variantName(memory, b)
	if an == bn {
		panic("eval: CompareVariants of a variant with itself")
	}
	// Relabel the two arms as two memories of one condition, so that
	// Compare pairs them by question and family.
	var arms []Outcome
	for i := range rows {
		o := rows[i]
		if o.Memory != memory || f != nil && !f(&o) {
			continue
		}
		switch v := o.Variant(); {
		case v.Equal(a):
			o.Memory = an
		case v.Equal(b):
			o.Memory = bn
		default:
			continue
		}
		o.Condition = ""
		arms = append(arms, o)
	}
	c, err := Compare(arms, label, an, bn, nil, opt)
	if err != nil {
		return c, fmt.Errorf("%s: %w", memory, err)
	}
	return c, nil
}

// variantName is memory under v, as CompareVariants names its arms.
func variantName(memory string, v Variant) string {
	if v.IsZero() {
		return memory
	}
	return memory + " [" + v.String() + "]"
}
