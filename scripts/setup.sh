#!/usr/bin/env bash
# scripts/setup.sh [--headless | --test] [--print]: install what the notebooks need,
# idempotently: no flag for `make setup` (to open them in Jupyter, and for make
# report), --headless for `make reproduce` (to run them headless only), --test for
# `make test`. --print prints the Debian packages the chosen target installs, one a
# line, and exits.
#
#   - Jupyter from Debian packages. PyPI is not used. --headless: only what runs a
#     notebook headless (nbclient, nbformat, jupyter-client: 17 of the 72
#     packages, installed in a quarter of the time); otherwise also the notebook
#     server, nbconvert and ipykernel. As root (or with sudo that asks no password):
#     apt-get install. Without root: apt-get download of the packages the system
#     lacks, extracted with dpkg-deb into .esr-tools/deb (scripts/jupyter-env.sh runs
#     Jupyter from there).
#   - --test only: the Python peers the statistics tests check against (numpy, scipy,
#     statsmodels, scikit-learn), and Chromium for the browser tests (below).
#   - GoNB and goimports, built from the versions go.mod pins (its `tool` lines), into
#     $(go env GOPATH)/bin, without cgo: as the notebooks' cells and make reproduce
#     build, so the three builds share the standard library's compiled packages.
#   - --test only: Chromium from Debian (/usr/bin/chromium) for the browser tests
#     (internal/browser), with fonts-liberation so pages render with real metrics.
#   - The "gonb" Jupyter kernel spec, pointing at that gonb binary.
#
# Every step is skipped when already done, so a warm run takes about a second and prints
# nothing. A step that does something prints one line to stderr; a step that fails prints
# its captured output and makes the script exit non-zero. Works as root with no stdin
# (CI); as another user it uses sudo for apt-get when sudo asks no password, and
# installs into the project (.esr-tools/), GOPATH/bin and ~/.local/share/jupyter
# otherwise.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# What running the notebooks headless needs (make reproduce: scripts/nbexec.py
# imports nbclient and nbformat; jupyter-client starts the kernel from its spec).
APT_HEADLESS_PACKAGES=(python3-nbclient python3-nbformat python3-jupyter-client)
# What opening them in Jupyter and the report's converter add (make setup, make
# report): the notebook server, nbconvert, and the jupyter command.
APT_INTERACTIVE_PACKAGES=(
	jupyter-notebook jupyter-nbconvert jupyter-client
	python3-nbconvert python3-ipykernel
)
# What only the tests need (make test): the statistics tests' reference values
# (SciPy, statsmodels, NumPy, scikit-learn), the browser tests' Chromium, and a
# C compiler for the race detector (make test-race; go test -race needs cgo).
APT_TEST_PACKAGES=(
	python3-numpy python3-scipy python3-statsmodels python3-sklearn
	chromium fonts-liberation gcc libc6-dev
)

FOR_TESTS=0
HEADLESS=0
PRINT=0
for arg in "$@"; do
	case "$arg" in
	--test) FOR_TESTS=1 ;;
	--headless) HEADLESS=1 ;;
	--print) PRINT=1 ;;
	*)
		echo "usage: scripts/setup.sh [--headless | --test] [--print]" >&2
		exit 2
		;;
	esac
done
if [ "$FOR_TESTS" -eq 1 ] && [ "$HEADLESS" -eq 1 ]; then
	echo "setup.sh: --headless and --test exclude each other (the tests use the notebook server and nbconvert)" >&2
	exit 2
fi
APT_PACKAGES=("${APT_HEADLESS_PACKAGES[@]}")
# What the notebooks (nbexec.py) import; without --headless also the report's
# converter (nbconvert), the notebook server and ipykernel.
PY_MODULES="nbformat, nbclient, jupyter_client"
if [ "$HEADLESS" -eq 0 ]; then
	APT_PACKAGES+=("${APT_INTERACTIVE_PACKAGES[@]}")
	PY_MODULES="$PY_MODULES, nbconvert, ipykernel, notebook"
fi
if [ "$FOR_TESTS" -eq 1 ]; then
	APT_PACKAGES+=("${APT_TEST_PACKAGES[@]}")
fi
if [ "$PRINT" -eq 1 ]; then
	printf '%s\n' "${APT_PACKAGES[@]}"
	exit 0
fi

say() { echo "setup: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# --- the trees Python imports from ------------------------------------------------
# .esr-tools (Jupyter extracted without root) and .venv (off Debian) are used only when
# they are the caller's alone (scripts/trusted-tree.sh): a tree another user owns, or
# others may write to, is refused before anything imports from it or extracts into it.
# What setup makes is writable by its owner only, whatever the caller's umask.
umask 022
. "$ROOT/scripts/trusted-tree.sh"
for tree in .esr-tools .venv; do
	if [ -e "$ROOT/$tree" ] || [ -L "$ROOT/$tree" ]; then
		require_trusted "$ROOT/$tree" "$tree"
	fi
done

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
# As root, or with sudo that asks no password: apt-get install. Otherwise, without
# root: the same Debian packages, those this system lacks, extracted into
# .esr-tools/deb (install_local below), which scripts/jupyter-env.sh then puts on
# PYTHONPATH and PATH. Either way scripts run Jupyter through scripts/jupyter-env.sh.
missing=()
if ! command -v dpkg-query >/dev/null 2>&1; then
	# Not Debian (macOS): Jupyter comes from a virtual environment at .venv.
	[ -x "$ROOT/.venv/bin/jupyter" ] ||
		die "not a Debian system: make a virtual environment with Jupyter first: python3 -m venv .venv && .venv/bin/pip install jupyter nbclient nbconvert ipykernel (README, Setup)"
	APT_PACKAGES=()
fi
for p in ${APT_PACKAGES[@]+"${APT_PACKAGES[@]}"}; do # (bash 3.2's set -u and an empty list)
	if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
PREFIX="$ROOT/.esr-tools/deb"
JUPYTER=(bash "$ROOT/scripts/jupyter-env.sh" jupyter)
JPY=(bash "$ROOT/scripts/jupyter-env.sh" python3)

# install_local PKG...: without root, extracts the Debian packages PKG and every
# package they depend on that this system lacks (as apt-get would install them,
# without recommends: apt-get -s against dpkg's database, as any user can) into
# $PREFIX, from the package lists already on the machine (apt-get update needs root).
install_local() {
	[ -x /usr/bin/python3 ] || die "no /usr/bin/python3: Debian's Jupyter runs on it; without root, ask an administrator to apt-get install python3"
	local tool
	for tool in apt-get dpkg-deb; do
		command -v "$tool" >/dev/null 2>&1 || die "no $tool: setup without root extracts Debian's Jupyter packages with apt-get download and dpkg-deb"
	done
	local LISTS=/var/lib/apt/lists/
	eval "$(apt-config shell LISTS Dir::State::lists/d 2>/dev/null)" || true
	if ! compgen -G "${LISTS%/}/*_Packages*" >/dev/null; then
		die "Debian's package lists in ${LISTS%/} are empty, and without root setup cannot run apt-get update: ask an administrator to run 'apt-get update' once (or to apt-get install ${*})"
	fi
	local sim pkgs=()
	if ! sim="$(apt-get -s -o Debug::NoLocking=1 install --no-install-recommends "$@" 2>&1 </dev/null)"; then
		say "apt-get cannot resolve $* from the package lists present (an administrator may need to run 'apt-get update'):"
		echo "$sim" >&2
		exit 1
	fi
	mapfile -t pkgs < <(awk '/^Inst /{print $2}' <<<"$sim")
	[ "${#pkgs[@]}" -gt 0 ] || die "apt-get -s install $* lists nothing to install, yet dpkg-query says they are missing"
	local work="$ROOT/.esr-tools/tmp"
	rm -rf "$work" && mkdir -p "$work/debs" "$work/deb" # (an interrupted run's leftovers too)
	say "no root: extracting ${#pkgs[@]} Debian packages (Jupyter and what it needs that this system lacks) into $PREFIX"
	if ! (cd "$work/debs" && apt-get download "${pkgs[@]}" >../download.log 2>&1 </dev/null); then
		say "apt-get download failed (package lists older than the archive need an administrator's 'apt-get update'):"
		tail -n 20 "$work/download.log" >&2
		exit 1
	fi
	local deb
	for deb in "$work"/debs/*.deb; do
		quiet dpkg-deb -x "$deb" "$work/deb"
	done
	chmod -R go-w "$work/deb" # (jupyter-env.sh refuses a tree others may write to)
	# Absolute symlinks (the notebook server's /usr/share/javascript/...) point
	# into the system; those whose target was extracted here point here instead.
	local link target
	while IFS= read -r -d '' link; do
		target="$(readlink "$link")"
		if [[ "$target" == /* ]] && [ -e "$work/deb$target" ]; then
			ln -sfn "$PREFIX$target" "$link"
		fi
	done < <(find "$work/deb" -type l -print0)
	printf '%s\n' "${pkgs[@]}" >"$work/deb/.complete"
	rm -rf "$PREFIX"
	mv "$work/deb" "$PREFIX"
	rm -rf "$work"
}

if [ "${#missing[@]}" -gt 0 ]; then
	SUDO=()
	if [ "$(id -u)" -ne 0 ] && sudo -n true >/dev/null 2>&1 </dev/null; then
		SUDO=(sudo -n)
	fi
	if [ "$(id -u)" -eq 0 ] || [ "${#SUDO[@]}" -gt 0 ]; then
		say "installing Debian packages: ${missing[*]}"
		quiet "${SUDO[@]}" apt-get update
		quiet "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
		[ "$HEADLESS" -eq 1 ] || [ -x /usr/bin/jupyter ] || die "/usr/bin/jupyter missing after installing Debian's Jupyter packages"
	else
		# Without root: what only the tests use (Chromium, SciPy) is not extracted
		# (Chromium's wrapper and the statistics tests expect them under /usr).
		for p in "${missing[@]}"; do
			for q in "${APT_TEST_PACKAGES[@]}"; do
				[ "$p" = "$q" ] && die "no root (and no sudo without a password) to install $p, which only the tests use: ask an administrator to 'apt-get install ${APT_TEST_PACKAGES[*]}'; make reproduce needs none of them"
			done
		done
		if /usr/bin/python3 -c "import $PY_MODULES" >/dev/null 2>&1 && { [ "$HEADLESS" -eq 1 ] || [ -x /usr/bin/jupyter ]; }; then
			: # Jupyter's modules are importable system-wide: nothing to download
		elif [ -f "$PREFIX/.complete" ] && "${JPY[@]}" -c "import $PY_MODULES" >/dev/null 2>&1; then
			: # extracted by an earlier run
		else
			install_local "${missing[@]}"
		fi
	fi
fi
"${JPY[@]}" -c "import $PY_MODULES" >/dev/null 2>&1 ||
	die "Jupyter's Python modules ($PY_MODULES) do not import with /usr/bin/python3 after setup (scripts/jupyter-env.sh python3 -c 'import nbclient' shows why)"
[ "$HEADLESS" -eq 1 ] || quiet "${JUPYTER[@]}" nbconvert --version
# The browser tests drive this binary (ESRKIT_CHROMIUM overrides it in the tests).
if [ "$FOR_TESTS" -eq 1 ]; then
	[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after installing Debian's chromium"
	quiet /usr/bin/chromium --version
fi

# --- GoNB and goimports, at the versions go.mod pins ---------------------------------
# Built from this module (go.mod's tool lines) without cgo: no module is downloaded
# twice, and the standard library compiled for one build serves the others.
GONB_VERSION="$(go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)" ||
	die "cannot read GoNB's version from go.mod"
GONB="$GOBIN_DIR/gonb"
if [ ! -x "$GONB" ] || [ "$("$GONB" -V 2>/dev/null || true)" != "$GONB_VERSION" ]; then
	say "building gonb $GONB_VERSION into $GONB"
	mkdir -p "$GOBIN_DIR"
	quiet env CGO_ENABLED=0 go build -o "$GONB" github.com/janpfeifer/gonb
fi
TOOLS_VERSION="$(go list -m -f '{{.Version}}' golang.org/x/tools)" ||
	die "cannot read golang.org/x/tools's version from go.mod"
GOIMPORTS="$GOBIN_DIR/goimports"
goimports_info="$(go version -m "$GOIMPORTS" 2>/dev/null || true)"
if ! grep -Eq "^[[:space:]]+(mod|dep)[[:space:]]+golang.org/x/tools[[:space:]]+$TOOLS_VERSION([[:space:]]|$)" <<<"$goimports_info"; then
	say "building goimports (golang.org/x/tools $TOOLS_VERSION) into $GOIMPORTS"
	mkdir -p "$GOBIN_DIR"
	quiet env CGO_ENABLED=0 go build -o "$GOIMPORTS" golang.org/x/tools/cmd/goimports
fi

# --- the gonb kernel spec ------------------------------------------------------------
# Installed (or re-installed) unless a "gonb" kernel spec exists whose binary is $GONB.
# gopls is skipped (gopls@latest needs a newer Go); it only serves auto-complete.
# (jupyter_client's own lookup, as the notebooks' runner makes it: --headless
# installs no jupyter command.)
kernel_argv0() {
	"${JPY[@]}" -c '
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
try:
    print(KernelSpecManager().get_kernel_spec("gonb").argv[0])
except NoSuchKernel:
    print("")
' 2>/dev/null || true
}
if [ "$(kernel_argv0)" != "$GONB" ]; then
	say "installing the gonb Jupyter kernel"
	quiet "$GONB" --install --force_deps
	[ "$(kernel_argv0)" = "$GONB" ] ||
		die "'gonb --install' ran, but jupyter_client finds no gonb kernel running $GONB"
fi
