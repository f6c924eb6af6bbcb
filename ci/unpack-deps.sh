#!/usr/bin/env bash
# Unpacks the Debian packages of vmmcheck's C++ dependencies into .deps/root, for a GPU machine that has
# no package registry (pass .deps along, then configure with -DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
(cd "$tmp" && apt-get download libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libtomlplusplus3 libgtest-dev libgmock-dev)
rm -rf .deps && mkdir -p .deps
for deb in "$tmp"/*.deb; do dpkg -x "$deb" .deps/root; done
rm -rf "$tmp"
echo "unpacked into .deps/root"
