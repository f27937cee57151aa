// Package llm talks to any OpenAI-compatible chat-completions endpoint (vLLM,
// llama.cpp server, Ollama, hosted APIs) for the LLM reader, the LLM judge and
// the atom extractor, and keeps every response in a persistent cache.
//
// Pieces:
//   - Client: POST {base}/chat/completions at temperature 0, one generation
//     per call, a concurrency limit, a per-request timeout, retries with
//     exponential backoff and full jitter on 429, 5xx, timeouts, network
//     errors and malformed or truncated bodies (honouring Retry-After), and a
//     bounded number of retries per request. The API key is sent only in the
//     Authorization header and is redacted from every error and log line
//     (as written or JSON-escaped, before a server's reply is cut to its
//     first 200 bytes); the server's text there is escaped for a terminal.
//   - Cache: a bbolt file (DIR/llm-cache.bolt) keyed by
//     sha256(model, template version, prompt hash, params). Each response is
//     committed as it arrives, so a killed run resumes without asking again
//     and a fully cached rerun sends no request at all. The endpoint and the
//     key are not part of the key and are never stored.
//   - Templates: versioned prompt files embedded from templates/ (QA with and
//     without the abstain instruction, judge, extraction); a template's
//     version string (its declared version plus a hash of the file) is part
//     of the cache key, so editing a template never reuses stale answers.
//   - ParseAnswer: the answer text normalised, abstentions recognised
//     (abstainPhrases).
//
// Configuration comes from flags and the environment: ESR_LLM_BASE_URL (e.g.
// http://localhost:8000/v1), ESR_LLM_API_KEY (optional) and ESR_LLM_MODELS (a
// comma-separated list; each model is its own answer family).
package llm
