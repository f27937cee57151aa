package reader

import "github.com/esrkit/esrkit/internal/layout"

// CountTokens approximates a BPE tokenizer's count of s (cl100k_base's
// pre-split, one token a piece, long letter runs split further; see
// internal/layout.CountTokens): pipes, digits and punctuation count as a
// tokenizer counts them, so a table row costs what a reader pays for it.
// Used for context_tokens when a real tokenizer's count is not available,
// and as the length feature of the reader model (RenderFeatures).
func CountTokens(s string) int { return layout.CountTokens(s) }
