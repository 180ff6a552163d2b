#!/usr/bin/env bash
# Install Debian packages the project needs (as root, or through sudo).
set -euo pipefail
run() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
echo "apt-install: $*" >&2
run apt-get update -qq
DEBIAN_FRONTEND=noninteractive run apt-get install -y -qq "$@" >/dev/null
