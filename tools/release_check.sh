#!/usr/bin/env bash
# Release check (issue 16, requirement 9): build the sdist and the wheel, install the wheel into a
# fresh virtualenv (with the eval extra and the CPU torch pin) and run tools/release_smoke.py
# against the installed copy, then install the sdist over it and run the smoke test again.
# Run by .ci/run after the tests; by hand: `bash tools/release_check.sh`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/build-env"
"$work/build-env/bin/pip" install -q build
# build makes the sdist, then the wheel from the unpacked sdist: a file missing from the sdist
# is missing from the wheel, and the smoke test below fails
"$work/build-env/bin/python" -m build -q --outdir "$work/dist" "$root" >/dev/null
wheel=$(ls "$work"/dist/blimpgen-*.whl)
sdist=$(ls "$work"/dist/blimpgen-*.tar.gz)
echo "built $(basename "$sdist") and $(basename "$wheel")"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q torch==2.13.0 "${wheel}[eval]" tokenizers
(cd "$work" && "$work/venv/bin/python" "$root/tools/release_smoke.py" --repo "$root" --work "$work/smoke-wheel")

"$work/venv/bin/pip" install -q --no-deps --force-reinstall "$sdist"
(cd "$work" && "$work/venv/bin/python" "$root/tools/release_smoke.py" --repo "$root" --work "$work/smoke-sdist")
echo "release check passed"
