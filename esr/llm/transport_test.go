package llm

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// parseHTTPDate stands in for net/http.ParseTime so the client's retry
// policy is the same with and without the HTTP client linked in.
func TestParseHTTPDateMatchesNetHTTP(t *testing.T) {
	for _, v := range []string{
		"Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate (RFC 9110's example)
		"Sunday, 06-Nov-94 08:49:37 GMT", // RFC 850
		"Sun Nov  6 08:49:37 1994",       // ANSI C asctime
		"Wed, 21 Oct 2015 07:28:00 GMT",
		"Wed, 21 Oct 2015 07:28:00 UTC", // not GMT: both refuse it
		"120", "", "tomorrow", "Sun, 06 Nov 1994",
	} {
		want, werr := http.ParseTime(v)
		got, gerr := parseHTTPDate(v)
		if (werr == nil) != (gerr == nil) || !got.Equal(want) {
			t.Errorf("parseHTTPDate(%q) = %v, %v; net/http.ParseTime: %v, %v", v, got, gerr, want, werr)
		}
	}
}

// The status codes the retry policy names are net/http's.
func TestRetryStatusesAreNetHTTPs(t *testing.T) {
	if statusTooManyRequests != http.StatusTooManyRequests || statusRequestTimeout != http.StatusRequestTimeout {
		t.Fatal("status constants differ from net/http's")
	}
}

// TestOfflineBuild builds what the notebooks build: with the esr_offline tag
// nbhelp's program links no net/http or TLS (the point of the tag), and
// this package's offline test passes there (New says why it cannot send).
func TestOfflineBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	if !httpIncluded {
		t.Skip("already the offline build")
	}
	goBin, err := exec.LookPath("go") // go test puts GOROOT/bin first on PATH
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goBin, "list", "-deps", "-tags", "esr_offline", "../../nbhelp").Output()
	if err != nil {
		t.Fatalf("go list -deps -tags esr_offline nbhelp: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "net/http" || p == "crypto/tls" {
			t.Errorf("nbhelp built with esr_offline still imports %s", p)
		}
	}
	if !strings.Contains(string(out), "github.com/esrkit/esrkit/esr/llm\n") {
		t.Errorf("nbhelp no longer imports esr/llm: this test checks nothing")
	}
	run := exec.Command(goBin, "test", "-count=1", "-v", "-tags", "esr_offline", "-run", "^TestOfflineBuildCannotSend$", ".")
	if b, err := run.CombinedOutput(); err != nil || !strings.Contains(string(b), "--- PASS: TestOfflineBuildCannotSend") {
		t.Fatalf("go test -tags esr_offline: %v\n%s", err, b)
	}
}
