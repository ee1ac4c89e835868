#!/usr/bin/env bash
# Installs what building (and, with "test", testing) claude-peers needs on Debian 12, and
# nothing that is already there. Needs root for apt-get; only Debian's and npm's registries.
set -euo pipefail
cd "$(dirname "$0")/.."

what=${1:-build}
packages=(cmake ninja-build g++ make pkg-config binutils ccache
          qt6-base-dev qt6-httpserver-dev qt6-websockets-dev libqt6sql6-sqlite
          qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qtkeychain-qt6-dev libssl-dev
          libqt6svg6 libavahi-compat-libdnssd-dev libqrencode-dev)
if [ "$what" = test ]; then
    packages+=(clang-format python3 procps dbus gnome-keyring libsecret-tools xvfb xauth fonts-dejavu-core
               tmux iproute2 util-linux curl openssl avahi-daemon)
    # Fuzzing (tests/fuzz: the smoke run of make test, make fuzz): clang and libFuzzer, and
    # llvm-15 for the sanitizers' llvm-symbolizer: without it (LLVM 14's on the PATH) they say
    # "invalid path to external symbolizer" and a finding's stack has no function names.
    packages+=(clang-15 libfuzzer-15-dev llvm-15)
    # Desktop resources and packages (tests/packaging): the freedesktop validators, lintian,
    # what cpack's .deb generator calls (dpkg-shlibdeps, file), and help2man for the man pages.
    packages+=(desktop-file-utils appstream lintian dpkg-dev file help2man)
    command -v node >/dev/null 2>&1 || packages+=(nodejs)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# nodejs from another source (e.g. NodeSource) provides node and npm without Debian's names.
if [ "${#missing[@]}" -gt 0 ]; then
    echo "Installing: ${missing[*]}" >&2
    if [ "$(id -u)" -ne 0 ]; then
        echo "error: missing packages and not root; run as root or: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$what" = test ]; then
    # External MCP clients for the "external" tests, each npm project pinned by its own
    # package-lock.json: the real Claude Code and the real OpenCode have projects of their own,
    # so their pins never meet the others'.
    for project in tests/external tests/external/claude-code tests/external/claude-code-current tests/external/opencode; do
        if [ ! -d "$project/node_modules" ] || [ "$project/package-lock.json" -nt "$project/node_modules" ]; then
            if [ "$project" = tests/external/opencode ]; then
                # opencode-ai lists a native package per platform as optional dependencies; the
                # registry reached here serves only the Linux ones, so `npm ci` rejects the lock as
                # out of sync. `npm install` installs exactly what the lock pins and skips the rest.
                npm install --prefix "$project" --no-audit --no-fund --loglevel=error >&2
            else
                npm ci --prefix "$project" --no-audit --no-fund --loglevel=error >&2
            fi
            touch "$project/node_modules"
        fi
    done
fi
