"""Smoke test of an installed blimpgen (run by tools/release_check.sh in a fresh virtualenv).

Checks that the installed copy (not the checkout's ``src/``) carries its data and works end to
end: the console script generates a paradigm, and ``blimpgen eval`` scores it with a tiny
random GPT-2 whose byte-level BPE tokenizer is trained here (nothing is downloaded). Exit 1 with
one line saying what failed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

UID = "regular_plural_subject_verb_agreement_1"
N = 40


def fail(message: str) -> None:
    print(f"release smoke test failed: {message}", file=sys.stderr)
    raise SystemExit(1)


def run(*args: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"`{' '.join(args)}` exited {done.returncode}: {done.stderr.strip()[-500:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, required=True, help="the checkout (for the tests' tiny-model builder)")
    parser.add_argument("--work", type=Path, required=True, help="an empty folder to work in")
    args = parser.parse_args()

    import blimpgen

    installed = Path(blimpgen.__file__).resolve()
    if args.repo.resolve() in installed.parents:
        fail(f"blimpgen imported from the checkout ({installed}), not from the installed package")
    for data in ("py.typed", "vocab/data/features.yaml"):
        if not (installed.parent / data).is_file():
            fail(f"the installed package lacks {data}")
    script = shutil.which("blimpgen", path=str(Path(sys.executable).parent))
    if script is None:
        fail("no blimpgen console script next to the interpreter")
    assert script is not None

    args.work.mkdir(parents=True)
    data = args.work / "data"
    run(script, "gen", "-p", UID, "-n", str(N), "--seed", "1", "--out-dir", str(data), "--quiet")
    rows = [json.loads(line) for line in (data / f"{UID}.jsonl").read_text().splitlines()]
    if len(rows) != N or rows[0].get("blimpgen_version") != blimpgen.__version__:
        fail(f"gen wrote {len(rows)} records (wanted {N}) or a different version than {blimpgen.__version__}")

    sys.path.insert(0, str(args.repo))  # tests/evaluate/tiny.py; blimpgen itself stays the installed copy
    from tests.evaluate.tiny import make_bytelevel_gpt2

    sentences = [row[key] for row in rows for key in ("sentence_good", "sentence_bad")]
    model = make_bytelevel_gpt2(sentences, args.work / "model")
    out = args.work / "results"
    run(script, "eval", "--model", str(model), "--device", "cpu", "--data", str(data), "--out", str(out))
    results = json.loads((out / "results.json").read_text())
    paradigm = results.get("paradigms", {}).get(UID, {})
    if paradigm.get("n_pairs") != N or not 0.0 <= paradigm.get("accuracy", -1.0) <= 1.0:
        fail(f"results.json has no accuracy over {N} pairs for {UID}: {paradigm}")
    print(f"smoke test passed: blimpgen {blimpgen.__version__} from {installed.parent}, gen {N} pairs, eval ok")


if __name__ == "__main__":
    main()
