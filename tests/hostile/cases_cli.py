"""Command-line arguments, output paths and signals (C), determinism (D) and stray writes (W)."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

from tests.hostile.corpus import REPO, Case, Error, Ok, cli, proc, py, wait_for
from tests.hostile.prerequisites import base

GEN = ("gen", "--paradigm", "npi_present_1", "--quiet")
OLD = "OLD\n"
MAIN = [sys.executable, "-c", "from blimpgen.cli import main; main()"]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def pairs(name: str, count: int):
    def check(ws: Path) -> None:
        records = [json.loads(line) for line in lines(ws / name)]
        assert len(records) == count and all(r["UID"] == "npi_present_1" for r in records), len(records)

    return check


def unchanged(name: str, content: str = OLD):
    def check(ws: Path) -> None:
        assert (ws / name).read_text(encoding="utf-8") == content, (ws / name).read_text(encoding="utf-8")[:200]

    return check


def no_parts(ws: Path) -> None:
    parts = [p.name for p in ws.rglob("*.part")]
    assert not parts, parts


def both(*checks):
    def check(ws: Path) -> None:
        for c in checks:
            c(ws)

    return check


def umask_mode(ws: Path) -> None:
    mask = os.umask(0o022)
    os.umask(mask)
    mode = stat.S_IMODE(os.stat(ws / "zero.jsonl").st_mode)
    assert mode == 0o666 & ~mask, oct(mode)
    assert (ws / "zero.jsonl").read_text() == ""


def mknod_null(path: Path) -> None:
    os.mknod(path, 0o644 | stat.S_IFCHR, os.makedev(1, 3))


def still_a_device(ws: Path) -> None:
    assert stat.S_ISCHR(os.lstat(ws / "mynull").st_mode)


def link(path: Path) -> None:
    (path.parent / "real").mkdir()
    (path.parent / "real" / "target.jsonl").write_text(OLD)
    path.symlink_to("real/target.jsonl")


def link_intact(ws: Path) -> None:
    assert (ws / "link.jsonl").is_symlink() and (ws / "real" / "target.jsonl").read_text() == OLD


def fifo(path: Path) -> None:
    os.mkfifo(path)


def file_size_limit(size: int):
    """A stand-in for a full disk: files may not grow past ``size`` bytes (EFBIG instead of ENOSPC)."""

    def prepare() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return prepare


def interrupt(sig: int):
    """Send ``sig`` once the generator is writing its temporary file."""

    def interact(process: subprocess.Popen, ws: Path) -> None:
        wait_for(lambda: list(ws.glob(".out.jsonl.*.part")) or process.poll() is not None, what="a .part file")
        assert process.poll() is None, "generation ended before the signal"
        os.kill(process.pid, sig)

    return interact


def killed_then_cleaned(ws: Path) -> None:
    """C22: SIGKILL leaves the old target and a .part; the next write to the target removes the .part."""
    process = subprocess.Popen(
        [*MAIN, *GEN, "-n", "10000000", "-o", "out.jsonl"], cwd=ws, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        interrupt(signal.SIGKILL)(process, ws)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (ws / "out.jsonl").read_text() == OLD and list(ws.glob(".out.jsonl.*.part"))
    from blimpgen.cli import main

    try:
        main(["gen", *GEN[1:], "-n", "1", "-o", str(ws / "out.jsonl")])
    except SystemExit as exc:
        assert not exc.code, exc.code
    assert len(lines(ws / "out.jsonl")) == 1
    no_parts(ws)


def pipe_closed(ws: Path) -> None:
    """C16: gen -n 100000 | head -1 stops quietly: no traceback, no message, exit 1 (Python's convention for EPIPE)."""
    command = " ".join(f"'{a}'" for a in [*MAIN, *GEN, "-n", "100000"])
    result = subprocess.run(
        ["bash", "-c", f'{command} | head -1; echo "status ${{PIPESTATUS[0]}}" >&2'],
        cwd=ws,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(result.stdout)["UID"] == "npi_present_1", result.stdout
    assert result.stderr.strip() == "status 1", result.stderr


def memory_streams(ws: Path) -> None:
    """C24: generation streams; the peak memory of a 5,000-pair run stays small (VmHWM of the process itself)."""
    code = (
        "import sys\nfrom blimpgen.cli import main\ntry:\n    main(sys.argv[1:])\nfinally:\n"
        "    print(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, *GEN, "-n", "5000", "-o", "big.jsonl"],
        cwd=ws,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and len(lines(ws / "big.jsonl")) == 5000, result.stderr
    peak_kb = int(result.stderr.split("VmHWM:")[1].split()[0])
    assert peak_kb < 400_000, f"peak RSS {peak_kb} KB"


def deterministic(ws: Path) -> None:
    """D01: byte-identical output for a seed across hash seeds, --all against single paradigms, -n prefixes."""
    for folder, hash_seed in (("A", "1"), ("B", "12345")):
        subprocess.run(
            [
                *MAIN,
                "gen",
                "--all",
                "--all-probes",
                "-n",
                "20",
                "--seed",
                "7",
                "--out-dir",
                folder,
                "--quiet",
                "--control",
                "all",
            ],
            cwd=ws,
            check=True,
            timeout=300,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
    names = sorted(p.name for p in (ws / "A").iterdir())
    assert names == sorted(p.name for p in (ws / "B").iterdir()) and len(names) > 60
    for name in names:
        assert (ws / "A" / name).read_bytes() == (ws / "B" / name).read_bytes(), name
    from blimpgen.cli import main

    for uid, n in (("npi_present_1", 20), ("wh_island", 10), ("anaphor_gender_agreement", 20)):
        try:
            main(["gen", "-p", uid, "-n", str(n), "--seed", "7", "--quiet", "-o", str(ws / "one.jsonl")])
        except SystemExit as exc:
            assert not exc.code
        assert lines(ws / "one.jsonl") == lines(ws / "A" / f"{uid}.jsonl")[:n], uid


def no_stray_writes(ws: Path) -> None:
    """W01: gen, check, export and validate write only their outputs, even with an empty HOME."""
    home = ws / "home"
    home.mkdir()
    (ws / "P").mkdir()
    (ws / "P" / "s_ok.yaml").write_text(base("s_ok"))
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "MPLCONFIGDIR": str(home / "mpl")}
    before = set(ws.rglob("*"))
    for args in (
        ["gen", *GEN[1:], "-n", "20", "-o", "g.jsonl"],
        ["check", "P"],
        ["gen", "-p", "s_ok", "--paradigm-path", "P", "-n", "20", "-o", "s.jsonl", "--quiet"],
        ["export", "hf", "--data", "g.jsonl", "-o", "ex"],
    ):
        subprocess.run([*MAIN, *args], cwd=ws, env=env, check=True, timeout=300, capture_output=True)
    written = {p.relative_to(ws).as_posix() for p in set(ws.rglob("*")) - before}
    expected = {"g.jsonl", "s.jsonl", "ex"}
    assert {w.split("/")[0] for w in written} == expected, sorted(written)
    assert not any(home.iterdir()), sorted(home.rglob("*"))


BOM_TSV = "\ufeff" + (REPO / "tests" / "fixtures" / "probes" / "items.tsv").read_text(encoding="utf-8")

CASES = [
    Case(
        id="C01",
        surface="cli",
        what="-n 0 -o zero.jsonl",
        finding="F6",
        run=(cli(*GEN, "-n", "0", "-o", "zero.jsonl"),),
        expect=Ok(umask_mode),
    ),
    Case(id="C02", surface="cli", what="-n -5", run=(cli(*GEN, "-n", "-5"),), expect=Error("Invalid value for '-n'")),
    Case(
        id="C03",
        surface="cli",
        what="-n 1000000000",
        run=(cli(*GEN, "-n", "1000000000"),),
        expect=Error("is not in the range 0<=x<=10000000"),
    ),
    Case(
        id="C04a",
        surface="cli",
        what="unknown UID npi_presnt_1",
        run=(cli("gen", "--paradigm", "npi_presnt_1"),),
        expect=Error("unknown paradigm or probe suite 'npi_presnt_1'; did you mean 'npi_present_1'"),
    ),
    Case(
        id="C04b",
        surface="cli",
        what="--paradigm ''",
        run=(cli("gen", "--paradigm", ""),),
        expect=Error("unknown paradigm or probe suite ''"),
    ),
    Case(
        id="C05",
        surface="cli",
        what="-o a/b/c/x.jsonl (missing folders)",
        run=(cli(*GEN, "-n", "2", "-o", "a/b/c/x.jsonl"),),
        expect=Ok(pairs("a/b/c/x.jsonl", 2)),
    ),
    Case(
        id="C06",
        surface="cli",
        what="-o an existing folder",
        files={"d/x": "x"},
        run=(cli(*GEN, "-n", "2", "-o", "d"),),
        expect=Error("Invalid value for '-o' / '--output': File 'd' is a directory."),
    ),
    Case(
        id="C07",
        surface="cli",
        what="-o onto a full disk (a 64 KiB file size limit), old file present",
        finding="F20",
        files={"out.jsonl": OLD},
        run=(proc(*GEN, "-n", "1000", "-o", "out.jsonl", prepare=file_size_limit(64 * 1024)),),
        expect=Error("out.jsonl: cannot write: File too large", check=both(unchanged("out.jsonl"), no_parts)),
    ),
    Case(
        id="C08",
        surface="cli",
        what="-o a character-device node (a mknod copy of /dev/null), as root",
        finding="F6",
        files={"mynull": mknod_null},
        run=(cli(*GEN, "-n", "2", "-o", "mynull"),),
        expect=Ok(still_a_device),
    ),
    Case(
        id="C08b",
        surface="cli",
        what="-o a FIFO",
        finding="F6",
        files={"fifo.jsonl": fifo},
        run=(cli(*GEN, "-n", "2", "-o", "fifo.jsonl"),),
        expect=Error("fifo.jsonl: exists and is a FIFO; blimpgen only replaces regular files"),
    ),
    Case(
        id="C09",
        surface="cli",
        what="-o a symlink",
        finding="F6",
        files={"link.jsonl": link},
        run=(cli(*GEN, "-n", "2", "-o", "link.jsonl"),),
        expect=Error("link.jsonl: exists and is a symbolic link", check=link_intact),
    ),
    Case(
        id="C10",
        surface="cli",
        what="-o the --lexicon-overlay file itself",
        finding="F7",
        files={"w.tsv": "wug\tN\tclass=animal; animate\n"},
        run=(cli(*GEN, "-n", "2", "--lexicon-overlay", "w.tsv", "-o", "w.tsv"),),
        expect=Error(
            "w.tsv: the output is also an input (--lexicon-overlay w.tsv)",
            check=unchanged("w.tsv", "wug\tN\tclass=animal; animate\n"),
        ),
    ),
    Case(
        id="C10b",
        surface="cli",
        what="-o a spec file of --paradigm-path",
        finding="F7",
        files={"P/s_ok.yaml": base("s_ok")},
        run=(cli("gen", "-p", "s_ok", "--paradigm-path", "P", "-n", "2", "-o", "P/s_ok.yaml", "--quiet"),),
        expect=Error("the output is also an input (--paradigm-path", check=unchanged("P/s_ok.yaml", base("s_ok"))),
    ),
    Case(
        id="C11",
        surface="cli",
        what="-o P/zz_out.yaml inside --paradigm-path",
        files={"P/s_ok.yaml": base("s_ok")},
        run=(cli("gen", "-p", "s_ok", "--paradigm-path", "P", "-n", "2", "-o", "P/zz_out.yaml", "--quiet"),),
        expect=Ok(),
    ),
    Case(
        id="C12a",
        surface="cli",
        what="--seed -1",
        run=(cli(*GEN, "-n", "2", "--seed", "-1", "-o", "o.jsonl"),),
        expect=Ok(pairs("o.jsonl", 2)),
    ),
    Case(
        id="C12b",
        surface="cli",
        what="--seed 10^30",
        run=(cli(*GEN, "-n", "2", "--seed", str(10**30), "-o", "o.jsonl"),),
        expect=Ok(pairs("o.jsonl", 2)),
    ),
    Case(
        id="C12c",
        surface="cli",
        what="--seed abc",
        run=(cli(*GEN, "--seed", "abc"),),
        expect=Error("Invalid value for '--seed': 'abc' is not a valid integer."),
    ),
    Case(
        id="C13",
        surface="cli",
        what="-o somefile/x.jsonl (the parent is a file)",
        finding="F20",
        files={"somefile": "x"},
        run=(cli(*GEN, "-n", "2", "-o", "somefile/x.jsonl"),),
        expect=Error("somefile/x.jsonl: cannot write: somefile is a file, not a folder"),
    ),
    Case(
        id="C14",
        surface="cli",
        what="-o with a 300-character name",
        finding="F20",
        run=(cli(*GEN, "-n", "2", "-o", "x" * 300 + ".jsonl"),),
        expect=Error("cannot write: File name too long"),
    ),
    Case(
        id="C15",
        surface="cli",
        what="-o ''",
        finding="F24",
        run=(cli(*GEN, "-n", "2", "-o", ""),),
        expect=Error("Invalid value for '-o' / '--output': an empty path"),
    ),
    Case(id="C16", surface="cli", what="gen -n 100000 | head -1", run=(py(pipe_closed),), expect=Ok()),
    Case(
        id="C17a",
        surface="cli",
        what="-o /proc/blimp.jsonl",
        finding="F20",
        run=(cli(*GEN, "-n", "2", "-o", "/proc/blimp.jsonl"),),
        expect=Error("/proc/blimp.jsonl: cannot write: "),
    ),
    Case(
        id="C17b",
        surface="cli",
        what="-o /sys/blimp.jsonl",
        finding="F20",
        run=(cli(*GEN, "-n", "2", "-o", "/sys/blimp.jsonl"),),
        expect=Error("/sys/blimp.jsonl: cannot write: "),
    ),
    Case(
        id="C18a",
        surface="cli",
        what="show -n 0",
        run=(cli("show", "npi_present_1", "-n", "0"),),
        expect=Error("Invalid value for '-n' / '--num': 0 is not in the range 1<=x<=10000."),
    ),
    Case(
        id="C18b",
        surface="cli",
        what="check --attempts 0",
        run=(cli("check", "--attempts", "0"),),
        expect=Error("Invalid value for '--attempts': 0 is not in the range 1<=x<=100000."),
    ),
    Case(
        id="C18c",
        surface="cli",
        what="audit -n 5",
        run=(cli("audit", "npi_present_1", "-n", "5"),),
        expect=Error("Invalid value for '-n' / '--num': 5 is not in the range 10<=x<=1000000."),
    ),
    Case(
        id="C19",
        surface="cli",
        what="--out-dir a regular file",
        files={"f": "x"},
        run=(cli("gen", "--all", "-n", "1", "--out-dir", "f"),),
        expect=Error("Invalid value for '--out-dir'"),
    ),
    Case(
        id="C20",
        surface="cli",
        what="SIGINT mid -n 10^7",
        finding="F21",
        files={"out.jsonl": OLD},
        run=(proc(*GEN, "-n", "10000000", "-o", "out.jsonl", interact=interrupt(signal.SIGINT)),),
        expect=Error("Aborted!", check=both(unchanged("out.jsonl"), no_parts)),
    ),
    Case(
        id="C21",
        surface="cli",
        what="SIGTERM mid -n 10^7",
        finding="F21",
        files={"out.jsonl": OLD},
        run=(proc(*GEN, "-n", "10000000", "-o", "out.jsonl", interact=interrupt(signal.SIGTERM)),),
        expect=Error("stopped by SIGTERM", check=both(unchanged("out.jsonl"), no_parts)),
    ),
    Case(
        id="C22",
        surface="cli",
        what="SIGKILL mid -n 10^7, then a second run",
        finding="F21",
        files={"out.jsonl": OLD},
        run=(py(killed_then_cleaned),),
        expect=Ok(),
    ),
    Case(
        id="C23",
        surface="cli",
        what="SIGHUP mid -n 10^7 (terminal closed)",
        finding="F21",
        files={"out.jsonl": OLD},
        run=(proc(*GEN, "-n", "10000000", "-o", "out.jsonl", interact=interrupt(signal.SIGHUP)),),
        expect=Error("stopped by SIGHUP", check=both(unchanged("out.jsonl"), no_parts)),
    ),
    Case(id="C24", surface="cli", what="memory while streaming (5,000 pairs)", run=(py(memory_streams),), expect=Ok()),
    Case(
        id="C25",
        surface="cli",
        what="probe import TSV with a BOM before the header",
        files={"items.tsv": BOM_TSV},
        run=(cli("probe", "import", "items.tsv", "-o", "items.jsonl"),),
        expect=Ok(),
    ),
    Case(
        id="C26",
        surface="cli",
        what="probe import items.tsv -o items.tsv",
        finding="F7",
        files={"items.tsv": BOM_TSV},
        run=(cli("probe", "import", "items.tsv", "-o", "items.tsv"),),
        expect=Error(
            "items.tsv: the output is also an input (SOURCE items.tsv)", check=unchanged("items.tsv", BOM_TSV)
        ),
    ),
    Case(
        id="C27",
        surface="cli",
        what="audit --overlap c.txt -o c.txt (its own corpus)",
        needs=("d1.jsonl",),
        files={"c.txt": "the cat sleeps\n"},
        run=(cli("audit", "--overlap", "c.txt", "--data", "d1.jsonl", "-o", "c.txt"),),
        expect=Error(
            "c.txt: the output is also an input (--overlap c.txt)", check=unchanged("c.txt", "the cat sleeps\n")
        ),
    ),
    Case(
        id="C28",
        surface="cli",
        what="audit --overlap a FIFO",
        needs=("d1.jsonl",),
        files={"f.txt": fifo},
        run=(cli("audit", "--overlap", "f.txt", "--data", "d1.jsonl"),),
        expect=Error("f.txt: cannot read file: not a regular file (a FIFO)"),
    ),
    Case(
        id="D01",
        surface="cli",
        what="determinism: hash seeds 1/12345, --all vs single, -n prefixes",
        run=(py(deterministic),),
        expect=Ok(),
    ),
    Case(
        id="W01",
        surface="cli",
        what="writes outside the requested paths, empty HOME",
        run=(py(no_stray_writes),),
        expect=Ok(),
    ),
]
