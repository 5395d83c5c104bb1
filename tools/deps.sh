#!/usr/bin/env bash
# tools/deps.sh --goal 'make run' --deps 'make deps DEPS_FOR="run"'
#               --build DIR [--report] -- PACKAGE...
#
# What a make goal needs before it builds: the Debian packages of the
# Makefile's table for it (PACKAGE...), and a build directory this user can
# write.  --goal is what the user typed, --deps the `make deps` that
# installs the same packages as root; both are only quoted in messages.
# The Makefile runs it before every build, so the common case (everything
# there) must be silent and cheap: DIR/.deps-ok lists the packages found
# installed, and while dpkg has changed nothing since, a check it answers
# asks dpkg nothing.  --report (an explicit `make deps`) says what is there.
#
# As root, the missing packages are installed with apt-get, whose output
# stays on the terminal (downloads take minutes: silence would look like a
# hang); apt-get update runs only then.  As anyone else it prints the
# exact command (sudo when there is one, else su -c), and fails.  Nothing
# is written under DIR by anyone but DIR's owner, and never by `make deps`,
# so `sudo make deps` in a user's clone leaves nothing there of root's.
#
# A DIR holding anything this user cannot write (a build run as root, say)
# fails with the command that gives it back, before the compiler fails
# half-way with "Permission denied".
#
# Without dpkg-query (not Debian) it checks nothing: the tools' own errors
# name what is missing.
set -u

usage() {
	echo "usage: tools/deps.sh --goal 'make GOAL' --deps 'make deps ...' --build DIR [--report] -- PACKAGE..." >&2
	exit 2
}

goal=make deps_cmd="make deps" build=build report=0
while [ $# -gt 0 ]; do
	case $1 in
	--goal) [ $# -ge 2 ] || usage; goal=$2; shift 2 ;;
	--deps) [ $# -ge 2 ] || usage; deps_cmd=$2; shift 2 ;;
	--build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
	--report) report=1; shift ;;
	--) shift; break ;;
	*) usage ;;
	esac
done

# as_root CMD: CMD as this user would type it to run it as root
as_root() {
	if command -v sudo >/dev/null 2>&1; then
		echo "sudo $1"
	else
		echo "su -c '$1'"
	fi
}

if [ -e "$build" ] && [ "$EUID" -ne 0 ]; then
	locked=$(find "$build" ! -writable -print -quit 2>/dev/null)
	if [ -n "$locked" ]; then
		echo "mm86: you cannot write $locked (a build run as root?)." >&2
		echo "mm86: remove $build/ with:   $(as_root "rm -rf $build")" >&2
		echo "mm86: or take it back with:  $(as_root "chown -R $(id -un): $build")" >&2
		echo "mm86: then build as yourself; only \`make deps\` needs root, and it writes nothing in $build/." >&2
		exit 1
	fi
fi

[ $# -gt 0 ] || exit 0
command -v dpkg-query >/dev/null 2>&1 || exit 0

# DIR/.deps-ok holds while dpkg's status file is older.  It is written only
# into a DIR that exists and belongs to this user, so deps never creates
# DIR nor leaves root's file in a user's.
declare -A known installed
stamp=$build/.deps-ok
if [ -f "$stamp" ] && [ "$stamp" -nt /var/lib/dpkg/status ]; then
	while read -r name; do known[$name]=1; done < "$stamp"
fi
all_known=1
for p in "$@"; do
	[ -n "${known[$p]:-}" ] || all_known=0
done
[ "$report" = 1 ] || [ "$all_known" = 0 ] || exit 0

# dpkg-query names the packages it knows; "ii" is installed.
while read -r status name; do
	[ "$status" = ii ] && installed[$name]=1
done < <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2>/dev/null)
missing=()
for p in "$@"; do
	[ -n "${installed[$p]:-}" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	[ "$report" = 0 ] || echo "mm86: installed already: $*"
	[ "$report" = 1 ] || [ ! -d "$build" ] || [ ! -O "$build" ] || [ ! -w "$build" ] ||
		printf '%s\n' "${!known[@]}" "${!installed[@]}" | sort -u > "$stamp" 2>/dev/null
	exit 0
fi

install="apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "mm86: \`$goal\` needs these Debian packages, and there is no apt-get here to install them:" >&2
	echo "    ${missing[*]}" >&2
	exit 1
fi

if [ "$EUID" -ne 0 ]; then
	echo "mm86: \`$goal\` needs Debian packages that are not installed:" >&2
	echo "mm86:     ${missing[*]}" >&2
	echo "mm86: install them with:" >&2
	if command -v sudo >/dev/null 2>&1; then
		echo "    sudo apt-get update && sudo $install" >&2
	else
		echo "    su -c 'apt-get update && $install'" >&2
	fi
	echo "mm86: or, in this directory:  $(as_root "$deps_cmd")" >&2
	echo "mm86: (\`make deps\` alone installs what every target needs; it writes nothing in $build/)." >&2
	if [ "$report" = 1 ]; then
		echo "mm86: Then build as yourself, not as root." >&2
	else
		echo "mm86: Then run \`$goal\` again as yourself, not as root." >&2
	fi
	exit 1
fi

if [ "$report" = 1 ]; then
	echo "mm86: installing ${missing[*]}"
else
	echo "mm86: \`$goal\` needs: ${missing[*]}"
fi
echo "mm86: apt-get update && $install"
export DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-noninteractive}
apt-get update || echo "mm86: apt-get update failed; trying the install with the package lists there are" >&2
if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
	echo "mm86: apt-get install failed (above); \`$goal\` needs: ${missing[*]}" >&2
	exit 1
fi
echo "mm86: installed ${missing[*]}"
