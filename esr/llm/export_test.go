package llm

// Hooks for the external tests (package llm_test, which reach the stub
// server of internal/llmtest and so cannot be in this package).
var (
	Key               = cacheKey
	CustomID          = customID
	EstimateTokens    = estimateTokens
	JudgeModelFromEnv = judgeModelFromEnv
	KeyEnv            = keyEnv
	ParseTemplate     = parseTemplate
	Redact            = redactKey
	// CacheNotice points at the hook a waiting cache open reports through.
	CacheNotice = &cacheNotice
)

const (
	CacheFile = cacheFile
	Redacted  = redacted
)
