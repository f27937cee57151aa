package esr

import "sort"

// DeprecationCycle returns one cycle among deprecation edges (from the
// deprecating atom id to the deprecated one) as the list of ids along it, or
// nil when the edges are acyclic. ⊕ itself only ever closes earlier atoms, so
// cycles can only come from relations given as data.
func DeprecationCycle(edges [][2]string) []string {
	next := map[string][]string{}
	for _, e := range edges {
		next[e[0]] = append(next[e[0]], e[1])
	}
	nodes := make([]string, 0, len(next))
	for n := range next {
		nodes = append(nodes, n)
		sort.Strings(next[n])
	}
	sort.Strings(nodes)
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var found []string
	var visit func(n string) bool
	visit = func(n string) bool {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range next[n] {
			switch color[m] {
			case grey:
				for i := range stack {
					if stack[i] == m {
						found = append(append([]string{}, stack[i:]...), m)
						return true
					}
				}
			case white:
				if visit(m) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return false
	}
	for _, n := range nodes {
		if color[n] == white && visit(n) {
			return found
		}
	}
	return nil
}
