package reader

import "strings"

// CountTokens approximates a tokenizer's count as the number of
// white-space-separated words times 4/3 (a common rule of thumb for English
// BPE vocabularies), rounded up. Used for context_tokens when a real
// tokenizer's count is not available.
func CountTokens(s string) int {
	n := len(strings.Fields(s))
	return (n*4 + 2) / 3
}
