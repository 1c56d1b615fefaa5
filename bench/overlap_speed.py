"""Contamination-check speed and memory: MB/s and peak RSS of ``blimpgen audit --overlap``.

Writes a corpus of about ``--size-mb`` MB to a temporary folder, plants sentences of a
generated suite in it (each planted line must be found: the run fails otherwise), then runs
``blimpgen audit --overlap CORPUS --data SUITE`` in a fresh process and reports its wall time,
the scan's MB/s (from the report's own timing) and the process's peak RSS. Run it at two sizes
to see memory stay flat while time grows linearly.

    python bench/overlap_speed.py                        # 1,000 MB of WikiText-2, repeated
    python bench/overlap_speed.py --size-mb 100          # a tenth of it: same peak RSS
    python bench/overlap_speed.py --source shuffled      # worst case: every token is a generated word

Corpus sources: ``wikitext`` (WikiText-2 test + valid from ../shared/corpora, repeated; real
English, most stretches hold words the suite never uses) and ``shuffled`` (lines of words drawn
from the suite's own vocabulary, so almost every position is looked up). The suite is every
shipped paradigm at ``-n`` pairs (seed 0), generated once per run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WIKITEXT = REPO.parent / "shared" / "corpora" / "wikitext-2"
PLANTS = 200
# Runs the CLI in this process and prints its peak RSS (MB) and CPU seconds last on stderr.
CHILD = """
import json, resource, sys
from blimpgen.cli import main
try:
    main(sys.argv[1:])
finally:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"rss_mb": usage.ru_maxrss / 1024, "cpu_s": usage.ru_utime + usage.ru_stime}), file=sys.stderr)
"""


def blimpgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blimpgen", *args], capture_output=True, text=True)


def suite_sentences(folder: Path) -> list[str]:
    return [
        json.loads(line)["sentence_good"]
        for path in sorted(folder.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def write_corpus(path: Path, size: int, source: str, sentences: list[str], rng: random.Random) -> set[str]:
    """Write about ``size`` bytes; return the sentences planted (each on a line of its own, upper-cased,
    inside other text)."""
    if source == "wikitext":
        chunk = b"".join((WIKITEXT / name).read_bytes() for name in ("test.txt", "valid.txt"))
    else:
        words = sorted({w for s in sentences for w in re.findall(r"[A-Za-z']+", s.lower())})
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(5, 40))) for _ in range(20000)]
        chunk = ("\n".join(lines) + "\n").encode()
    planted = set(rng.sample(sentences, PLANTS))
    queue = sorted(planted)
    per_copy = -(-PLANTS // max(1, size // len(chunk)))  # spread the plants over the copies
    written = 0
    with path.open("wb") as handle:
        while written < size or queue:
            handle.write(chunk)
            written += len(chunk)
            for _ in range(min(per_copy, len(queue))):
                line = f"Before it, {queue.pop().upper()} And after it.\n".encode()
                handle.write(line)
                written += len(line)
    return planted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1000, help="corpus size in MB (10^6 bytes)")
    parser.add_argument("--source", choices=["wikitext", "shuffled"], default="wikitext")
    parser.add_argument("-n", type=int, default=1000, help="pairs per paradigm in the generated suite")
    parser.add_argument("--ngram", type=int, default=8)
    parser.add_argument("--keep", type=Path, help="write the corpus here and keep it (default: a temporary folder)")
    args = parser.parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory(prefix="overlap-bench-") as tmp:
        folder = Path(tmp)
        suite = folder / "suite"
        done = blimpgen("gen", "--all", "-n", str(args.n), "--out-dir", str(suite), "--quiet")
        if done.returncode:
            sys.exit(done.stderr)
        sentences = suite_sentences(suite)
        corpus = args.keep or folder / "corpus.txt"
        start = time.perf_counter()
        planted = write_corpus(corpus, args.size_mb * 10**6, args.source, sentences, rng)
        print(
            f"corpus: {corpus.stat().st_size / 1e6:.0f} MB ({args.source}) written in "
            f"{time.perf_counter() - start:.0f} s; suite: {len(sentences)} pairs; {len(planted)} sentences planted"
        )
        load_before = f"{os.getloadavg()[0]:.2f}"
        start = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                CHILD,
                "audit",
                "--overlap",
                str(corpus),
                "--data",
                str(suite),
                "--ngram",
                str(args.ngram),
                "--markdown",
            ],
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - start
        if done.returncode:
            sys.exit(done.stdout + done.stderr)
        usage = json.loads(done.stderr.strip().splitlines()[-1])
        total = re.search(r"\| \*\*total\*\* \| (\d+) \| (\d+)/\d+", done.stdout)
        scanned = re.search(
            r"Corpus `[^`]*`: ([\d.]+) MB, (\d+) lines, (\d+) tokens, scanned in ([\d.]+) s", done.stdout
        )
        found = int(total.group(2)) if total else -1
        megabytes, tokens, seconds = float(scanned.group(1)), int(scanned.group(3)), float(scanned.group(4))
        print(
            f"audit --overlap: {wall:.1f} s wall, {usage['cpu_s']:.1f} s CPU (whole process: "
            f"{megabytes / wall:.1f} MB/s wall, {megabytes / usage['cpu_s']:.1f} MB/s CPU); scan alone "
            f"{seconds:.1f} s wall = {megabytes / seconds:.1f} MB/s, {tokens / seconds / 1e6:.2f} M tokens/s; "
            f"peak RSS {usage['rss_mb']:.0f} MB"
        )
        print(
            f"load average before/after: {load_before} / {os.getloadavg()[0]:.2f} (2 shared cores: wall time "
            "depends on it, CPU time much less)"
        )
        print(f"good sentences found verbatim: {found} (planted {len(planted)}; WikiText itself holds none)")
        if found < len(planted):
            sys.exit("a planted sentence was not found")


if __name__ == "__main__":
    main()
