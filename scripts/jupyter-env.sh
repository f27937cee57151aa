#!/usr/bin/env bash
# scripts/jupyter-env.sh jupyter|python3 [ARG...]: runs Debian's Jupyter, or the
# /usr/bin/python3 it runs on, wherever scripts/setup.sh put it.
#
# As root (or with sudo), setup.sh installs Debian's Jupyter system-wide and this runs
# /usr/bin/jupyter or /usr/bin/python3 as they are. Without root, setup.sh extracts the
# same Debian packages (those the system lacks) into .esr-tools/deb and marks it done
# with .esr-tools/deb/.complete; this then puts that tree first on PYTHONPATH, PATH,
# LD_LIBRARY_PATH (python3-zmq's libzmq) and JUPYTER_PATH (nbconvert's templates)
# before running the same commands. /usr/bin/python3 either way: a pyenv or venv
# python3 first on PATH has none of Debian's modules. Off Debian (macOS), a virtual
# environment at .venv with Jupyter pip-installed in it is used instead (README, Setup).
# Either tree is used only when it is the caller's alone (scripts/trusted-tree.sh): owned by
# the caller and writable by no one else; otherwise this refuses, saying why.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="$ROOT/.esr-tools/deb"
. "$ROOT/scripts/trusted-tree.sh"

if [ "$#" -lt 1 ]; then
	echo "usage: scripts/jupyter-env.sh jupyter|python3 [ARG...]" >&2
	exit 2
fi
cmd="$1"
shift

export PYDEVD_DISABLE_FILE_VALIDATION=1 # silences debugpy's "frozen modules" warning
jupyter=/usr/bin/jupyter
if [ -f "$PREFIX/.complete" ]; then
	require_trusted "$ROOT/.esr-tools" .esr-tools
	export PYTHONPATH="$PREFIX/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
	export PATH="$PREFIX/usr/bin:$PATH"
	export JUPYTER_PATH="$PREFIX/usr/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
	libs=""
	for d in "$PREFIX"/usr/lib/*-linux-gnu "$PREFIX"/lib/*-linux-gnu; do
		[ -d "$d" ] && libs="$libs${libs:+:}$d"
	done
	if [ -n "$libs" ]; then
		export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	fi
	# jupyter-core may be the system's while the subcommands are local: then
	# /usr/bin/jupyter finds jupyter-nbconvert on PATH.
	[ -f "$PREFIX/usr/bin/jupyter" ] && jupyter="$PREFIX/usr/bin/jupyter"
fi

python=/usr/bin/python3
if [ ! -f "$PREFIX/.complete" ] && [ -x "$ROOT/.venv/bin/jupyter" ]; then
	require_trusted "$ROOT/.venv" .venv
	python="$ROOT/.venv/bin/python3" jupyter="$ROOT/.venv/bin/jupyter"
fi

case "$cmd" in
python3) exec "$python" "$@" ;;
jupyter) exec "$python" "$jupyter" "$@" ;;
*)
	echo "scripts/jupyter-env.sh: $cmd: not jupyter or python3" >&2
	exit 2
	;;
esac
