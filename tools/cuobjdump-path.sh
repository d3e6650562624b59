#!/usr/bin/env bash
# Prints the directory holding cuobjdump: the one on PATH, or the one the
# PyPI package nvidia-cuda-cuobjdump installs (site-packages or the user
# site, as pip --user puts it). Prints nothing if neither.
if command -v cuobjdump >/dev/null 2>&1; then dirname "$(command -v cuobjdump)"; exit 0; fi
sites=$(python3 -c 'import site; print("\n".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null) || exit 0
while IFS= read -r site; do
  for d in "$site"/nvidia/cu*/bin; do [ -x "$d/cuobjdump" ] && { echo "$d"; exit 0; }; done
done <<< "$sites"
exit 0
