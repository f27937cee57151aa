package llm_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// jsonEscaped is s as a JSON encoder that escapes every character writes
// it (\u0073\u006b…).
func jsonEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// noKeyPart fails when text holds the start of the key, as it is or
// JSON-escaped (what a cut through the key would leave).
func noKeyPart(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, secret[:6]) || strings.Contains(strings.ToLower(text), jsonEscaped(secret[:2])) {
		t.Errorf("%s holds the start of the API key: %q", what, text)
	}
}

// An error body's secrets are redacted before the body is cut for the
// message: a key that the 200-character cut runs through leaves no start,
// and a key echoed JSON-escaped (wholly, in upper-case hex, or in part) is
// redacted like the key itself.
func TestServerErrorIsRedactedBeforeItIsCut(t *testing.T) {
	half := len(secret) / 2
	for name, echo := range map[string]string{
		"across the cut":       strings.Repeat("x", 190) + " " + secret,
		"json-escaped":         `{"error":{"message":"bad key ` + jsonEscaped(secret) + `"}}`,
		"json-escaped upper":   `{"error":"bad key ` + strings.ReplaceAll(strings.ToUpper(jsonEscaped(secret)), `\U`, `\u`) + `"}`,
		"json-escaped in part": `{"error":"bad key ` + secret[:half] + jsonEscaped(secret[half:]) + `"}`,
		"escaped across cut":   strings.Repeat("x", 190) + " " + jsonEscaped(secret),
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
				http.Error(w, echo, http.StatusUnauthorized)
				return true
			}})
			defer srv.Close()
			c, _ := newClient(t, srv, nil)
			_, err := ask(c)
			if err == nil {
				t.Fatal("a 401 answered")
			}
			noKeyPart(t, "the error", err.Error())
			if strings.Contains(strings.ToLower(err.Error()), jsonEscaped(secret[half:half+2])) {
				t.Errorf("the error holds the JSON-escaped key: %s", err)
			}
			if !strings.Contains(err.Error(), llm.Redacted[:4]) {
				t.Errorf("the error shows no redaction: %s", err)
			}
		})
	}
}

// A server's text in an error or a retry notice reaches the terminal with
// its control characters escaped: a reply cannot clear the screen, retitle
// the window or reverse the text after it.
func TestServerErrorShowsControlCharactersAsEscapes(t *testing.T) {
	const body = "\x1b[2J\x1b]0;pwned\a\x1b[31mrefused\u202e \u2028\xc2\x9b1m"
	srv := llmtest.New(llmtest.Options{Fault: func(_ int, _ llmtest.Request, w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(body))
		return true
	}})
	defer srv.Close()
	c, logs := newClient(t, srv, nil)
	_, err := ask(c)
	if err == nil {
		t.Fatal("a 503 answered")
	}
	for _, text := range append([]string{err.Error()}, *logs...) {
		for _, ctl := range []string{"\x1b", "\a", "\u202e", "\u2028", "\u009b"} {
			if strings.Contains(text, ctl) {
				t.Errorf("%q reaches the terminal as it is: %q", ctl, text)
			}
		}
		if !strings.Contains(text, `\x1b[2J\x1b]0;pwned\a\x1b[31mrefused\u202e`) {
			t.Errorf("the server's text is not shown escaped: %q", text)
		}
	}
	if len(*logs) == 0 {
		t.Error("no retry notice")
	}
}

// A batch result that failed is reported with its error's secrets
// redacted before the cut and its control characters escaped.
func TestBatchImportRedactsAndEscapesAFailedResult(t *testing.T) {
	dir := t.TempDir()
	reqPath, ids := batchFiles(t, dir)
	line := fmt.Sprintf(`{"custom_id":%q,"error":{"message":"`+"\u202e"+` %s %s"}}`, ids[0], strings.Repeat("y", 180), jsonEscaped(secret)) + "\n" +
		fmt.Sprintf(`{"custom_id":%q,"response":{"status_code":401,"body":{"error":"%s %s"}}}`, ids[1], strings.Repeat("y", 180), secret) + "\n"
	resPath := filepath.Join(dir, "results.jsonl")
	if err := os.WriteFile(resPath, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := llm.OpenCache(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	rep, err := llm.ImportBatch(resPath, reqPath, cache, secret)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) != 2 {
		t.Fatalf("failed %q", rep.Failed)
	}
	for _, f := range rep.Failed {
		noKeyPart(t, "a failed result", f)
		if strings.Contains(f, "\u202e") {
			t.Errorf("a failed result holds a right-to-left override: %q", f)
		}
	}
}

// A secret is redacted however a JSON encoder escaped it: a "/" as "\/",
// any character as \uXXXX, with the rest of the text left as it was.
func TestRedactFindsAJSONEscapedSecret(t *testing.T) {
	const pw = "pa/ss+word=1234"
	for _, in := range []string{
		`{"url":"https://u:pa\/ss+word=1234@host"}`,
		`{"echo":"pa\/ss\u002Bword\u003d1234"}`,
		`{"echo":"` + jsonEscaped(pw) + `"}`,
	} {
		got := llm.Redact(in, pw)
		if !strings.Contains(got, llm.Redacted) || strings.Contains(got, "ss+word") || strings.Contains(got, `ss\u002Bword`) || strings.Contains(got, jsonEscaped("pa")) {
			t.Errorf("Redact(%s) = %s", in, got)
		}
		if !strings.HasPrefix(got, `{"`) || !strings.HasSuffix(got, `"}`) {
			t.Errorf("Redact(%s) = %s: the text around the secret changed", in, got)
		}
	}
}
