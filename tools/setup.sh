#!/usr/bin/env bash
# Installs what KernelOpt needs on a Debian/Ubuntu machine (idempotent: it
# installs only what is missing, so it also runs where there is no network
# but everything is present, as on the GPU machines).
set -euo pipefail

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in cmake ninja-build g++ libgtest-dev libbenchmark-dev nlohmann-json3-dev ccache chromium; do
  have_pkg "$pkg" || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
  echo "setup: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# cuobjdump (SASS for the static checks) when the CUDA toolkit lacks it.
if ! command -v cuobjdump >/dev/null 2>&1; then
  if ! python3 -c "import importlib.util,sys; sys.exit(importlib.util.find_spec('nvidia') is None)" 2>/dev/null \
     || ! ls "$(python3 -c 'import site; print(site.getsitepackages()[0])')"/nvidia/cu*/bin/cuobjdump >/dev/null 2>&1 \
     || ! ls "$(python3 -c 'import site; print(site.getsitepackages()[0])')"/nvidia/cu*/bin/nvdisasm >/dev/null 2>&1; then
    echo "setup: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm"
    python3 -m pip install -q nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm 2>&1 | grep -v "WARNING: Running pip as the 'root'" || true
  fi
fi

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc is at /usr/local/cuda/bin (add it to PATH)"
fi
