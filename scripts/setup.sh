#!/usr/bin/env bash
# scripts/setup.sh [--test] [--print]: install what `make reproduce` (no flag) or
# `make test` (--test) needs, idempotently. --print prints the Debian packages the
# chosen target installs, one a line, and exits.
#
#   - Jupyter (nbconvert, nbclient, ipykernel, the notebook server) from Debian
#     packages. PyPI is not used.
#   - --test only: the Python peers the statistics tests check against (numpy, scipy,
#     statsmodels, scikit-learn), and Chromium for the browser tests (below).
#   - GoNB, built from the version pinned in go.mod (`tool github.com/janpfeifer/gonb`),
#     into $(go env GOPATH)/bin.
#   - goimports (GoNB completes a cell's imports with it).
#   - --test only: Chromium from Debian (/usr/bin/chromium) for the browser tests
#     (internal/browser), with fonts-liberation so pages render with real metrics.
#   - The "gonb" Jupyter kernel spec, pointing at that gonb binary.
#
# Every step is skipped when already done, so a warm run takes about a second and prints
# nothing. A step that does something prints one line to stderr; a step that fails prints
# its captured output and makes the script exit non-zero. Works as root with no stdin
# (CI); as another user it uses sudo for apt-get.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

GOIMPORTS_VERSION=v0.52.0
# What running the notebooks needs (make reproduce).
APT_PACKAGES=(
	jupyter-notebook jupyter-nbconvert jupyter-client
	python3-nbconvert python3-nbclient python3-ipykernel python3-nbformat
)
# What only the tests need (make test): the statistics tests' reference values
# (SciPy, statsmodels, NumPy, scikit-learn) and the browser tests' Chromium.
APT_TEST_PACKAGES=(
	python3-numpy python3-scipy python3-statsmodels python3-sklearn
	chromium fonts-liberation
)

FOR_TESTS=0
PRINT=0
for arg in "$@"; do
	case "$arg" in
	--test) FOR_TESTS=1 ;;
	--print) PRINT=1 ;;
	*)
		echo "usage: scripts/setup.sh [--test] [--print]" >&2
		exit 2
		;;
	esac
done
if [ "$FOR_TESTS" -eq 1 ]; then
	APT_PACKAGES+=("${APT_TEST_PACKAGES[@]}")
fi
if [ "$PRINT" -eq 1 ]; then
	printf '%s\n' "${APT_PACKAGES[@]}"
	exit 0
fi

say() { echo "setup: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# quiet CMD...: run CMD, showing its output only if it fails.
quiet() {
	local out rc=0
	out="$(mktemp)"
	"$@" >"$out" 2>&1 </dev/null || rc=$?
	if [ "$rc" -ne 0 ]; then
		say "FAILED (exit $rc): $*"
		cat "$out" >&2
		rm -f "$out"
		exit "$rc"
	fi
	rm -f "$out"
}

# --- Go -----------------------------------------------------------------------
if ! command -v go >/dev/null 2>&1; then
	[ -x /usr/local/go/bin/go ] || die "go not found (expected on PATH or at /usr/local/go/bin/go)"
	export PATH="/usr/local/go/bin:$PATH"
fi
GOBIN_DIR="$(go env GOPATH)/bin"
export PATH="$GOBIN_DIR:$PATH"

# --- Debian packages: Jupyter and Python peers ----------------------------------
missing=()
for p in "${APT_PACKAGES[@]}"; do
	if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	SUDO=()
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to apt-get install ${missing[*]}"
		SUDO=(sudo -n)
	fi
	say "installing Debian packages: ${missing[*]}"
	quiet "${SUDO[@]}" apt-get update
	quiet "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
# Debian's jupyter runs on /usr/bin/python3; a pyenv python3 first on PATH has no Jupyter.
JUPYTER=/usr/bin/jupyter
[ -x "$JUPYTER" ] || die "$JUPYTER missing after installing Debian's Jupyter packages"
export PYDEVD_DISABLE_FILE_VALIDATION=1 # silences debugpy's "frozen modules" warning
quiet "$JUPYTER" nbconvert --version
# The browser tests drive this binary (ESRKIT_CHROMIUM overrides it in the tests).
if [ "$FOR_TESTS" -eq 1 ]; then
	[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after installing Debian's chromium"
	quiet /usr/bin/chromium --version
fi

# --- GoNB, at the version go.mod pins ----------------------------------------------
GONB_VERSION="$(go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)" ||
	die "cannot read GoNB's version from go.mod"
GONB="$GOBIN_DIR/gonb"
if [ ! -x "$GONB" ] || [ "$("$GONB" -V 2>/dev/null || true)" != "$GONB_VERSION" ]; then
	say "building gonb $GONB_VERSION into $GONB"
	mkdir -p "$GOBIN_DIR"
	quiet go build -o "$GONB" github.com/janpfeifer/gonb
fi

# --- goimports ---------------------------------------------------------------------
GOIMPORTS="$GOBIN_DIR/goimports"
goimports_info="$(go version -m "$GOIMPORTS" 2>/dev/null || true)"
if ! grep -Eq "^[[:space:]]+mod[[:space:]]+golang.org/x/tools[[:space:]]+$GOIMPORTS_VERSION([[:space:]]|$)" <<<"$goimports_info"; then
	say "installing goimports $GOIMPORTS_VERSION"
	quiet go install "golang.org/x/tools/cmd/goimports@$GOIMPORTS_VERSION"
fi

# --- the gonb kernel spec ------------------------------------------------------------
# Installed (or re-installed) unless a "gonb" kernel spec exists whose binary is $GONB.
# gopls is skipped (gopls@latest needs a newer Go); it only serves auto-complete.
kernel_argv0() {
	"$JUPYTER" kernelspec list --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
spec = json.load(sys.stdin).get("kernelspecs", {}).get("gonb")
print(spec["spec"]["argv"][0] if spec else "")
' || true
}
if [ "$(kernel_argv0)" != "$GONB" ]; then
	say "installing the gonb Jupyter kernel"
	quiet "$GONB" --install --force_deps
	[ "$(kernel_argv0)" = "$GONB" ] ||
		die "'gonb --install' ran, but $JUPYTER does not list a gonb kernel running $GONB"
fi
