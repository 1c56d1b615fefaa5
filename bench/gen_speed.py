"""Generation speed and memory: pairs/second and peak RSS per shipped paradigm and for all.

Every measurement runs in a fresh Python process pinned to one CPU core, so the cold start
(imports, lexicon load, spec load) is included, as a user experiences ``blimpgen gen``.

    python bench/gen_speed.py            # 1,000 pairs per paradigm
    python bench/gen_speed.py --memory   # all paradigms at 1k/5k/20k: memory plateaus
    python bench/gen_speed.py --cli      # `blimpgen gen --all` as users run it, --jobs 1 vs one per CPU
    python bench/gen_speed.py --cpu      # the same in CPU seconds: start-up, largest worker, whole

``--cli`` runs the command itself, unpinned, in turn (serial, parallel, serial, ...), and prints
wall seconds and the largest process's peak RSS, min and median of ``--repeats`` runs each.
``--cpu`` measures what a loaded machine cannot show in wall time: CPU seconds of the parent's
start-up (until the first file is written), of each worker's generation, and of the whole; the
start-up plus the largest worker estimates the wall time of a quiet machine.

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
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(uids), str(n)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def measure_cli(n: int, jobs: int | None, out: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB, the largest process) of one cold ``blimpgen gen --all``."""
    import shutil

    shutil.rmtree(out, ignore_errors=True)
    command = [
        sys.executable,
        "-c",
        "from blimpgen.cli import main; main()",
        "gen",
        "--all",
        "-n",
        str(n),
        "--out-dir",
        out,
        "--quiet",
    ] + ([] if jobs is None else ["--jobs", str(jobs)])
    # A child that reads its own peak: RUSAGE_CHILDREN here would keep the largest of every run.
    wrapper = (
        "import resource, subprocess, sys, time; s = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], check=True); "
        "print(time.perf_counter() - s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
    )
    result = subprocess.run([sys.executable, "-c", wrapper, *command], capture_output=True, text=True, check=True)
    wall, rss = map(float, result.stdout.split())
    return wall, rss


def cli_main(n: int, repeats: int) -> None:
    import os
    import statistics
    import tempfile

    rows: dict[str, list[tuple[float, float]]] = {"--jobs 1": [], "one per CPU": []}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs before the runs")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeats):
            rows["--jobs 1"].append(measure_cli(n, 1, f"{tmp}/serial"))
            rows["one per CPU"].append(measure_cli(n, None, f"{tmp}/parallel"))
    print(f"{'blimpgen gen --all -n ' + str(n):<32} {'wall min':>9} {'median':>7} {'peak RSS MB':>12}")
    for name, runs in rows.items():
        walls = [w for w, _ in runs]
        print(f"{name:<32} {min(walls):>9.2f} {statistics.median(walls):>7.2f} {max(r for _, r in runs):>12.0f}")
    print(f"load average {os.getloadavg()[0]:.2f} after; target: <= 5 s and <= 300 MB on 2 quiet cores")


CPU_CHILD = r"""
import json, os, resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
marks = {}
G = __import__("blimpgen.generators.generate", fromlist=["_"])
P = __import__("blimpgen.generators.pool", fromlist=["_"])
write_files, write_records = P.write_files, G.write_records
def timed_files(*args, **kwargs):
    marks["startup"] = cpu()  # everything before the first file: imports, specs, lexicon, sources
    return write_files(*args, **kwargs)
log = sys.argv[1]
def timed_records(source, n, seed, out, progress=True):
    start = time.process_time()
    count = write_records(source, n, seed, out, progress)
    with open(os.path.join(log, str(os.getpid())), "a") as handle:
        handle.write(f"{time.process_time() - start}\n")
    return count
G.write_files, G.write_records = timed_files, timed_records
from blimpgen.cli import main
main(sys.argv[2:])
per_process = {int(name): sum(map(float, open(os.path.join(log, name)))) for name in os.listdir(log)}
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"startup_cpu": marks["startup"], "total_cpu": cpu() + children.ru_utime + children.ru_stime,
                  "worker_cpu": [v for k, v in per_process.items() if k != os.getpid()],
                  "serial_generation_cpu": per_process.get(os.getpid(), 0.0)}))
"""


def measure_cpu(n: int, jobs: int | None, out: str) -> dict:
    """CPU seconds of one cold ``blimpgen gen --all``: the start-up before the first file is
    written, each worker's generation, and the whole (parent and workers)."""
    import shutil
    import tempfile

    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory() as log:
        command = [sys.executable, "-c", CPU_CHILD, log, "gen", "--all", "-n", str(n), "--out-dir", out, "--quiet"]
        result = subprocess.run(
            command + ([] if jobs is None else ["--jobs", str(jobs)]), capture_output=True, text=True, check=True
        )
    return json.loads(result.stdout.splitlines()[-1])


def cpu_main(n: int, repeats: int) -> None:
    import os
    import statistics
    import tempfile

    rows: dict[str, list[dict]] = {"--jobs 1": [], "one per CPU": []}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs before the runs")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeats):
            rows["--jobs 1"].append(measure_cpu(n, 1, f"{tmp}/serial"))
            rows["one per CPU"].append(measure_cpu(n, None, f"{tmp}/parallel"))
    header = f"CPU s, median of {repeats}"
    print(f"{header:<22} {'start-up':>9} {'largest worker':>15} {'whole':>7} {'estimate':>9}")
    for name, runs in rows.items():
        startup = statistics.median(r["startup_cpu"] for r in runs)
        worker = statistics.median(max(r["worker_cpu"] or [r["serial_generation_cpu"]]) for r in runs)
        whole = statistics.median(r["total_cpu"] for r in runs)
        print(f"{name:<22} {startup:>9.2f} {worker:>15.2f} {whole:>7.2f} {startup + worker:>9.2f}")
    print(
        f"load average {os.getloadavg()[0]:.2f} after; estimate = start-up + largest worker (the wall time of "
        "a quiet machine with a core per worker)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="pairs per paradigm")
    parser.add_argument("--only-total", action="store_true", help="skip the per-paradigm rows")
    parser.add_argument("--cli", action="store_true", help="time `blimpgen gen --all`, serial vs parallel")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="CPU seconds of `blimpgen gen --all`: start-up, largest worker, whole (loaded machines)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="--cli / --cpu runs of each")
    parser.add_argument(
        "--memory",
        action="store_true",
        help="all paradigms at N = 1,000 / 5,000 / 20,000: peak RSS should plateau, not grow with N",
    )
    args = parser.parse_args()

    if args.cli:
        cli_main(args.n, args.repeats)
        return
    if args.cpu:
        cpu_main(args.n, args.repeats)
        return
    if args.memory:
        from blimpgen.grammar import load_shipped_specs

        uids = sorted(load_shipped_specs())
        print(f"{'N per paradigm':>15} {'pairs':>10} {'seconds':>8} {'pairs/s':>8} {'peak RSS MB':>12}")
        for n in (1000, 5000, 20000):
            r = measure(uids, n)
            print(
                f"{n:>15} {r['pairs']:>10} {r['total_s']:>8.1f} {r['pairs'] / r['total_s']:>8.0f} {r['rss_mb']:>12.0f}"
            )
        return

    from blimpgen.grammar import load_shipped_specs

    uids = sorted(load_shipped_specs())
    print(f"{'paradigm':<48} {'pairs':>7} {'total s':>8} {'gen s':>7} {'pairs/s':>9} {'RSS MB':>7}")
    if not args.only_total:
        for uid in uids:
            r = measure([uid], args.n)
            print(
                f"{uid:<48} {r['pairs']:>7} {r['total_s']:>8.2f} {r['generate_s']:>7.2f} "
                f"{r['pairs'] / r['total_s']:>9.0f} {r['rss_mb']:>7.0f}"
            )
    r = measure(uids, args.n)
    print(
        f"{'ALL (' + str(len(uids)) + ' paradigms, cold start included)':<48} {r['pairs']:>7} "
        f"{r['total_s']:>8.2f} {r['generate_s']:>7.2f} {r['pairs'] / r['total_s']:>9.0f} {r['rss_mb']:>7.0f}"
    )
    print(
        f"\nstart-up: imports {r['import_s']:.2f} s, lexicon load {r['lexicon_s']:.2f} s "
        f"({r['lexicon_entries']} entries, {r['lexicon_words']} word forms), specs {r['specs_s']:.2f} s"
    )
    print(f"generation only: {r['pairs'] / r['generate_s']:.0f} pairs/s")
    print("targets: >= 5000 pairs/s for all (cold start included), lexicon load <= 1 s, RSS <= 300 MB")


if __name__ == "__main__":
    main()
