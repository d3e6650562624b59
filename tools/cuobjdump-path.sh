#!/usr/bin/env bash
# Prints the directory holding cuobjdump: the CUDA toolkit's, or the one the
# PyPI package nvidia-cuda-cuobjdump installs. Prints nothing if neither.
if command -v cuobjdump >/dev/null 2>&1; then dirname "$(command -v cuobjdump)"; exit 0; fi
site=$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null) || exit 0
for d in "$site"/nvidia/cu*/bin; do [ -x "$d/cuobjdump" ] && { echo "$d"; exit 0; }; done
exit 0
