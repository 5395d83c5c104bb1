#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (an Ubuntu image): make and python3 first, then autograder.py prepare
# installs the rest of what make grade needs (the Makefile's PKGS.grade,
# through tools/deps.sh) and builds the hand-out's kernel, so that a
# submission rebuilds only its own files.
set -eu
top=${AUTOGRADER_DIR:-/autograder}
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends make python3
exec python3 "${AUTOGRADER_SOURCE:-$top/source}/autograder.py" prepare
