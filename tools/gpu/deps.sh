#!/usr/bin/env bash
# Debian packages a GPU machine without network may lack, carried to it as
# .deb files and unpacked into the checkout (never into /).
#   here:       bash tools/gpu/deps.sh fetch    -> .deps/*.deb (git-ignored)
#   on the GPU: source tools/gpu/deps.sh unpack  -> .deps/root, and
#               CMAKE_PREFIX_PATH pointing at it (find_package(CLI11) etc.)
# The device tool carries .deps when the call names it in `carry`.
# Packages: libcli11-dev (header-only; KernelOpt's command lines).
deps_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.deps"
deps_packages=(libcli11-dev)
case "${1:-}" in
  fetch)
    mkdir -p "$deps_dir"
    (cd "$deps_dir" && apt-get download "${deps_packages[@]}") || { echo "deps: apt-get download failed" >&2; exit 1; }
    ls -l "$deps_dir"/*.deb
    ;;
  unpack)
    if ! compgen -G "$deps_dir/*.deb" > /dev/null; then
      echo "deps: no .deb under $deps_dir (run 'bash tools/gpu/deps.sh fetch' where apt works, and carry .deps)" >&2
      return 1 2>/dev/null || exit 1
    fi
    for deb in "$deps_dir"/*.deb; do dpkg -x "$deb" "$deps_dir/root"; done
    export CMAKE_PREFIX_PATH="$deps_dir/root/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    echo "deps: unpacked $(ls "$deps_dir"/*.deb | wc -l) package(s); CMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH"
    ;;
  *)
    echo "usage: bash tools/gpu/deps.sh fetch | source tools/gpu/deps.sh unpack" >&2
    return 2 2>/dev/null || exit 2
    ;;
esac
