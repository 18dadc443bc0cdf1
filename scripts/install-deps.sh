#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not installed yet (the Makefile's lists).
# Does nothing, and needs no network, when all of them are present.
#
# Tested on Debian 12 (bookworm) and Debian 13 (trixie): scripts/test-in-debian.sh. Where a release spells a
# package otherwise, the table below maps the name. Without root and without sudo, it installs nothing and
# prints the exact apt-get line to hand to an administrator (exit 1). On a system without dpkg/apt (not tested
# here) it prints the Debian names, for finding the same libraries under that system's own names.
set -euo pipefail

release=""
if [ -r /etc/os-release ]; then
  release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
fi

# A package whose name differs by release: "release:name=replacement". None of the names the Makefile lists
# differ between bookworm and trixie today; a new entry goes here, not into the Makefile.
declare -A RENAMED=(
)

names=()
for pkg in "$@"; do
  names+=("${RENAMED[$release:$pkg]:-$pkg}")
done

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: this system has no dpkg/apt; qualrank is built and tested on Debian 12 and 13." >&2
  echo "install-deps: install the equivalents of these Debian packages, then run make again:" >&2
  echo "  ${names[*]}" >&2
  exit 1
fi

missing=()
for pkg in "${names[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "install-deps: these packages are missing and this account can neither install them (not root) nor use sudo." >&2
    echo "install-deps: ask an administrator to run, as root:" >&2
    echo "  apt-get update && $line" >&2
    echo "install-deps: then run make again." >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
# A dropped connection to the archive is tried again (three times) before it fails the build.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=3 update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=3 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
