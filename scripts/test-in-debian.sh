#!/usr/bin/env bash
# scripts/test-in-debian.sh RELEASE [STEP...]: the README's quick start on a fresh Debian machine.
#
# Makes a minimal root of RELEASE (bookworm = Debian 12, trixie = Debian 13) with debootstrap --variant=minbase
# from Debian's archive, adds git and make, clones this repository's HEAD into it (what a fresh clone has: no
# build tree, no uncommitted change), and runs there, as root, as a new user would:
#   run      make run                 (installs the build packages, builds the binary, writes the report)
#   test     make test                (installs the test packages, builds everything, runs ctest)
#   package  make package, then apt-get install ./build/qualrank_*.deb and `qualrank --version` from /usr/bin
# The default is all three, in that order; each is timed, and a summary line per step is printed at the end.
#
# Needs root (debootstrap, chroot, mount) or sudo. The shared reference data (../shared beside the repository),
# when present, is mounted read-only beside the clone, as CI lays it out. Environment:
#   DEBIAN_MIRROR   the archive (default http://deb.debian.org/debian)
#   QUALRANK_ROOTS  where roots are made (default /var/tmp/qualrank-roots); each run makes a new one
#   KEEP=1          keep the root afterwards (its path is printed); otherwise it is removed
set -euo pipefail

usage() { echo "usage: $0 bookworm|trixie [run|test|package]..." >&2; exit 2; }
[ $# -ge 1 ] || usage
release=$1; shift
case $release in bookworm | trixie) ;; *) usage ;; esac
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(run test package)
for s in "${steps[@]}"; do case $s in run | test | package) ;; *) usage ;; esac; done

if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "$0: needs root (debootstrap, chroot) or sudo" >&2; exit 1; }
  exec sudo -E "$0" "$release" "${steps[@]}"
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
"$repo/scripts/install-deps.sh" debootstrap git
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
roots=${QUALRANK_ROOTS:-/var/tmp/qualrank-roots}
mkdir -p "$roots"
root=$(mktemp -d "$roots/$release.XXXXXX")
log=$root.log

mounted=()
cleanup() {
  local m
  for ((m = ${#mounted[@]} - 1; m >= 0; m--)); do umount -l "${mounted[m]}" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then
    echo "test-in-debian: the root is kept at $root (log $log)"
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
mnt() {  # mnt TARGET ARGS...: mount, and unmount on exit
  local target=$1; shift
  mkdir -p "$target"
  mount "$@" "$target"
  mounted+=("$target")
}

now() { date +%s; }
declare -A took=()
t0=$(now)
echo "test-in-debian: debootstrap $release into $root (log $log)"
debootstrap --variant=minbase --include=git,make,ca-certificates "$release" "$root" "$mirror" >"$log" 2>&1 ||
  { tail -20 "$log" >&2; echo "test-in-debian: debootstrap failed" >&2; exit 1; }
took[debootstrap]=$(($(now) - t0))

mnt "$root/proc" -t proc proc
mnt "$root/sys" -t sysfs sysfs
mnt "$root/dev" --rbind /dev
mount --make-rslave "$root/dev"
mnt "$root/dev/shm" -t tmpfs -o mode=1777 tmpfs
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

git clone --quiet --no-hardlinks "$repo" "$root/root/qualrank"
if [ -d "$repo/../shared" ]; then
  mnt "$root/root/shared" --bind "$repo/../shared"
  mount -o remount,bind,ro "$root/root/shared"
fi

in_root() {  # in_root COMMAND: a login-like shell in the clone, with a clean environment
  chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /root/qualrank && $1"
}

rc=0
for step in "${steps[@]}"; do
  case $step in
    run) cmd='make run' ;;
    test) cmd='make test' ;;
    package) cmd='make package && apt-get install -y -qq ./build/qualrank_*.deb >/dev/null && cd /tmp &&
                  /usr/bin/qualrank --version && /usr/bin/qualrank init pkgcheck >/dev/null &&
                  /usr/bin/qualrank -C pkgcheck validate' ;;
  esac
  echo "test-in-debian: [$release] $step: $cmd"
  t0=$(now)
  if in_root "$cmd"; then took[$step]=$(($(now) - t0)); else rc=$?; took[$step]="FAILED (exit $rc) after $(($(now) - t0))"; fi
  echo "test-in-debian: [$release] $step: ${took[$step]} s"
  [ $rc -eq 0 ] || break
done

echo "test-in-debian: $release ($(cat "$root/etc/debian_version")), $(nproc) cores:"
echo "  debootstrap  ${took[debootstrap]} s"
for step in "${steps[@]}"; do
  [ -n "${took[$step]:-}" ] && echo "  $step  ${took[$step]} s"
done
exit $rc
