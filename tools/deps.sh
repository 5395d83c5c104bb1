#!/usr/bin/env bash
# tools/deps.sh PACKAGE... - make sure the Debian packages mm86 builds and
# boots with are installed.  As root it installs what is missing with
# apt-get; otherwise it prints the exact command to run and fails.
set -u
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "mm86: missing packages: ${missing[*]} (and no apt-get here to install them)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "mm86: missing packages: ${missing[*]}" >&2
	echo "mm86: install them with:" >&2
	echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "mm86: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null ||
	{ echo "mm86: apt-get install failed" >&2; exit 1; }
