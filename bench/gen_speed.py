"""Generation speed and memory: pairs/second and peak RSS per shipped paradigm and for all.

Every measurement runs in a fresh Python process pinned to one CPU core, so the cold start
(imports, lexicon load, spec load) is included, as a user experiences ``blimpgen gen``.

    python bench/gen_speed.py            # 1,000 pairs per paradigm
    python bench/gen_speed.py --memory   # all paradigms at 1k/5k/20k: memory plateaus

Targets (issue 2): whole shipped set >= 5,000 pairs/s on one core, lexicon load <= 1 s,
peak RSS <= 300 MB.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, os, resource, sys, time
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
start = time.perf_counter()
from blimpgen.vocab import load_lexicon
from blimpgen.generators.generate import generate, load_paradigms
from blimpgen.records.jsonl import dumps_record as dumps_pair
t_import = time.perf_counter()
lexicon = load_lexicon()
t_lexicon = time.perf_counter()
uids = json.loads(sys.argv[1])
n = int(sys.argv[2])
paradigms = load_paradigms(uids, lexicon=lexicon)
t_specs = time.perf_counter()
count = 0
with open(os.devnull, "w") as sink:
    for paradigm in paradigms:
        for pair in generate(paradigm, n, 0):
            sink.write(dumps_pair(pair) + "\n")
            count += 1
end = time.perf_counter()
print(json.dumps({"pairs": count, "total_s": end - start, "import_s": t_import - start,
                  "lexicon_s": t_lexicon - t_import, "specs_s": t_specs - t_lexicon,
                  "generate_s": end - t_specs, "lexicon_words": len(lexicon),
                  "lexicon_entries": len(lexicon.lexemes),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(uids: list[str], n: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(uids), str(n)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="pairs per paradigm")
    parser.add_argument("--only-total", action="store_true", help="skip the per-paradigm rows")
    parser.add_argument("--memory", action="store_true",
                        help="all paradigms at N = 1,000 / 5,000 / 20,000: peak RSS should plateau, not grow with N")
    args = parser.parse_args()

    if args.memory:
        from blimpgen.grammar import load_shipped_specs

        uids = sorted(load_shipped_specs())
        print(f"{'N per paradigm':>15} {'pairs':>10} {'seconds':>8} {'pairs/s':>8} {'peak RSS MB':>12}")
        for n in (1000, 5000, 20000):
            r = measure(uids, n)
            print(f"{n:>15} {r['pairs']:>10} {r['total_s']:>8.1f} {r['pairs'] / r['total_s']:>8.0f} "
                  f"{r['rss_mb']:>12.0f}")
        return

    from blimpgen.grammar import load_shipped_specs

    uids = sorted(load_shipped_specs())
    print(f"{'paradigm':<48} {'pairs':>7} {'total s':>8} {'gen s':>7} {'pairs/s':>9} {'RSS MB':>7}")
    if not args.only_total:
        for uid in uids:
            r = measure([uid], args.n)
            print(f"{uid:<48} {r['pairs']:>7} {r['total_s']:>8.2f} {r['generate_s']:>7.2f} "
                  f"{r['pairs'] / r['total_s']:>9.0f} {r['rss_mb']:>7.0f}")
    r = measure(uids, args.n)
    print(f"{'ALL (' + str(len(uids)) + ' paradigms, cold start included)':<48} {r['pairs']:>7} "
          f"{r['total_s']:>8.2f} {r['generate_s']:>7.2f} {r['pairs'] / r['total_s']:>9.0f} {r['rss_mb']:>7.0f}")
    print(f"\nstart-up: imports {r['import_s']:.2f} s, lexicon load {r['lexicon_s']:.2f} s "
          f"({r['lexicon_entries']} entries, {r['lexicon_words']} word forms), specs {r['specs_s']:.2f} s")
    print(f"generation only: {r['pairs'] / r['generate_s']:.0f} pairs/s")
    print("targets: >= 5000 pairs/s for all (cold start included), lexicon load <= 1 s, RSS <= 300 MB")


if __name__ == "__main__":
    main()
