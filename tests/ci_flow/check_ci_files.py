#!/usr/bin/env python3
"""ci.example_files: docs/ci/*.yml parse as YAML and run the documented
commands (docs/ci-gating.md): the perf gate with KernelOpt_PERF_MISSING=fail
and ctest -L perf -V, and tools/ci/base_vs_pr.sh --runs 9 on two builds.
Exits 77 (skipped) without PyYAML."""
import sys
from pathlib import Path

try:
    import yaml
except ImportError:
    print("SKIPPED: no PyYAML (python3 -m pip install pyyaml)")
    sys.exit(77)

docs = Path(sys.argv[1])
guide = (docs / "ci-gating.md").read_text()
wanted = [
    "-DKernelOpt_PERF_MISSING=fail",
    "ctest --test-dir build -L perf -V",
    "tools/ci/base_vs_pr.sh --runs 9 build-base build-pr base-vs-pr",
]
failures = []
for line in wanted:
    if line not in guide:
        failures.append(f"docs/ci-gating.md does not show `{line}`")
for name in ("github-actions.yml", "gitlab-ci.yml"):
    text = (docs / "ci" / name).read_text()
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as error:
        failures.append(f"docs/ci/{name}: not YAML: {error}")
        continue
    if not isinstance(doc, dict):
        failures.append(f"docs/ci/{name}: not a mapping")
    for line in wanted:
        if line not in text:
            failures.append(f"docs/ci/{name} does not run `{line}`")
for failure in failures:
    print(failure)
print("ok" if not failures else f"{len(failures)} problem(s)")
sys.exit(1 if failures else 0)
