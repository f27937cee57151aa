# scripts/trusted-tree.sh: sourced by scripts/setup.sh and scripts/jupyter-env.sh (with ROOT
# set to the repository). Python imports, and the shell runs, whatever the tools tree
# (.esr-tools) or a virtual environment (.venv) holds: a tree another user owns, or one
# that others may write to, would run their code as the caller. So neither is used then.

# require_trusted DIR NAME: exits 1, saying why and what to do, unless the tree at DIR (a
# link to it followed) is the caller's alone: every file and folder in it owned by the
# caller (or root) and none writable by group or others (links aside: their own mode
# means nothing), and no folder above it that anyone else owns or may write to (a
# sticky one like /tmp aside) up to the repository, or up to / for a tree linked from
# outside it. NAME is how messages name it (.esr-tools).
require_trusted() {
	local dir="$1" name="$2" me real top bad d
	me="$(id -u)"
	if ! real="$(cd "$dir" 2>/dev/null && pwd -P)"; then
		trust_refuse "$name" "$dir" "$dir cannot be entered (a link to nowhere, or a folder not yours)" "remove it (rm -rf $name)"
	fi
	# The first file or folder in it that someone else owns, or that others may write to.
	if ! bad="$(find "$real" \( ! -user "$me" ! -user 0 \) -print -quit)"; then
		trust_refuse "$name" "$real" "parts of it cannot be read" "remove it (rm -rf $name)"
	fi
	if [ -n "$bad" ]; then
		trust_refuse "$name" "$real" "$bad is owned by $(trust_owner "$bad"), not by you" "remove it (rm -rf $name)"
	fi
	bad="$(find "$real" ! -type l \( -perm -020 -o -perm -002 \) -print -quit)"
	if [ -n "$bad" ]; then
		trust_refuse "$name" "$real" "$bad is writable by group or others" "chmod -R go-w $name (or remove it: rm -rf $name)"
	fi
	# The folders above it: whoever may rename it may put a tree of theirs in its place.
	top="$(cd "$ROOT" && pwd -P)"
	case "$real" in "$top"/*) ;; *) top=/ ;; esac
	d="$real"
	while [ "$d" != / ]; do
		d="$(dirname "$d")"
		[ "$d" = "$top" ] && [ "$top" != / ] && break
		if [ -n "$(find "$d" -maxdepth 0 ! -user "$me" ! -user 0 -print)" ]; then
			trust_refuse "$name" "$real" "the folder $d above it is owned by $(trust_owner "$d"), not by you" "keep $name inside the repository (rm -rf $name)"
		fi
		if [ -n "$(find "$d" -maxdepth 0 ! -perm -1000 \( -perm -020 -o -perm -002 \) -print)" ]; then
			trust_refuse "$name" "$real" "the folder $d above it is writable by group or others" "keep $name inside the repository (rm -rf $name)"
		fi
	done
}

# trust_owner PATH: the name (or uid) of the owner of PATH.
trust_owner() { ls -ld "$1" | awk '{print $3}'; }

# trust_refuse NAME PATH WHY FIX: the refusal.
trust_refuse() {
	echo "${0##*/}: refusing $1 ($2): $3; Python would import, and the scripts run, what others put there. To fix: $4, then run make setup again." >&2
	exit 1
}
