#!/usr/bin/env bash
# The packages as a user gets them: builds the .deb and the .tgz with cpack from the build tree,
# runs lintian (no errors), then installs the .deb with `apt-get install ./x.deb` into a
# throw-away copy of this machine and checks it there: every binary starts (--version), the
# MCP helper answers `initialize`, the installed broker serves the installed CLI, and
# `apt-get purge` leaves no file of the package behind.
#
# The copy: a private mount, pid and network namespace (unshare) with an overlay whose lower
# dir is / and whose upper dir is a tmpfs, chrooted into. Nothing reaches the host: when the
# namespace's first process exits, the kernel ends every process and unmounts everything.
# No network: the package's dependencies must already be installed here (tools/install-deps.sh);
# if apt wants to download something the test fails and says what.
#
# Usage: package-install.sh <build-dir>       exit 0 ok, 1 failure, 77 skipped (not root, no overlay)
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
step() { printf '== %s (%ss)\n' "$*" "$SECONDS"; }

# ---- inside the namespaces: package-install.sh --inside <work> <deb> -----------------------------
if [ "${1:-}" = --inside ]; then
    work=$2 deb=$3
    root=$work/merged
    mount -t tmpfs -o mode=0700 overlay-rw "$work/rw"
    mkdir "$work/rw/upper" "$work/rw/work"
    mount -t overlay overlay -o "lowerdir=/,upperdir=$work/rw/upper,workdir=$work/rw/work" "$root" ||
        { echo "overlay mount failed" >&2; exit 3; }
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs -o mode=1777 tmp "$root/tmp"
    mount -t tmpfs -o mode=0755 run "$root/run"
    ip link set lo up 2>/dev/null || true # the broker check below listens on the private loopback
    install -m 0644 "$deb" "$root/tmp/"
    debname=$(basename "$deb")
    # What the package ships, and which of those paths the machine already had (shared dirs).
    dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|; s|/$||' | grep -v '^$' >"$root/tmp/shipped"
    while read -r path; do
        if [ -e "$root$path" ]; then echo "$path"; fi
    done <"$root/tmp/shipped" >"$root/tmp/preexisting"

    install -m 0755 "$(dirname "$(realpath "$0")")/installed-checks.sh" "$root/tmp/"
    exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home XDG_RUNTIME_DIR=/run/user/0 \
        DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 DEBNAME="$debname" /tmp/installed-checks.sh
fi

# ---- outside: build the packages, lintian, then the namespaces ----------------------------------
build=$(realpath "${1:?usage: package-install.sh <build-dir>}")
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake missing: configure the build first"
for tool in cpack lintian dpkg-deb unshare chroot apt-get python3; do
    command -v $tool >/dev/null || fail "$tool is not installed (tools/install-deps.sh test installs it)"
done
[ "$(id -u)" -eq 0 ] || skip "not root: the install test needs a private mount namespace with an overlay of / (run as root)"

work=$(mktemp -d /tmp/peers-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/rw" "$work/merged"

step "cpack (DEB, TGZ)"
cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" -G "DEB;TGZ" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log" >&2; fail "cpack failed"; }
deb=$(ls "$work"/pkg/*.deb)
tgz=$(ls "$work"/pkg/*.tar.gz)
ls -l "$deb" "$tgz" | awk '{print $5, $NF}'
dpkg-deb -f "$deb" Package Version Depends Recommends

step "the tarball holds the same tree as the deb"
diff <(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./||; s|/$||' | grep -v '^$' | sort) \
     <(tar -tzf "$tgz" | sed 's|^[^/]*/||; s|/$||' | grep -v '^$' | sort) ||
    fail "the .tar.gz and the .deb hold different files (above)"

step "lintian"
set +e
lintian --fail-on error --display-level '>=warning' "$deb" >"$work/lintian.log" 2>&1
rc=$?
set -e
grep -v "running with root privileges" "$work/lintian.log" || true
[ $rc -eq 0 ] || fail "lintian reports errors (E: lines above) or did not run (exit $rc)"
# Every program in /usr/bin has its manual page (help2man, packaging/man/).
if grep -q "no-manual-page" "$work/lintian.log"; then
    fail "a program has no manual page (W: no-manual-page above; is help2man installed?)"
fi

step "install into an overlay of this machine"
set +e
unshare --mount --pid --fork --net --propagation private "$0" --inside "$work" "$deb"
rc=$?
set -e
[ $rc -eq 3 ] && skip "cannot mount an overlay with / as its lower dir here"
[ $rc -eq 0 ] || fail "the package test in the overlay failed (exit $rc)"
step "done"
