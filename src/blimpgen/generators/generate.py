"""Generating N unique minimal pairs from a paradigm, reproducibly.

Same seed + same lexicon + same spec -> byte-identical output: every random choice comes
from one ``random.Random`` seeded by ``(seed, UID)``, and candidate lists keep lexicon order.
Pairs are unique on both sentences (BLiMP dedupes on the good one; we also refuse repeated
bad sentences and good == bad). A paradigm that cannot reach N stops after a bounded number of
attempts with an error that says how many pairs it made and which slot ran dry.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from blimpgen import __version__
from blimpgen._io import atomic_writer
from blimpgen.errors import GenerationError
from blimpgen.generators.kinds.base import Bindings
from blimpgen.generators.paradigm import DeadEnd, Paradigm, build_paradigm, paradigm_rng, provenance
from blimpgen.grammar.loader import LoadedSpec, load_shipped_specs, load_specs
from blimpgen.grammar.templates import RenderDeadEnd
from blimpgen.records.jsonl import dumps_record
from blimpgen.records.pair import MinimalPair
from blimpgen.vocab.lexicon import Lexicon, load_lexicon

# Attempts allowed per requested pair, plus a floor; and failures in a row before giving up.
ATTEMPTS_PER_PAIR = 40
MIN_ATTEMPTS = 2000
MAX_FAILURES_IN_A_ROW = 5000


def generate(paradigm: Paradigm, n: int, seed: int = 0) -> Iterator[MinimalPair]:
    """Yield ``n`` unique pairs.

    Raises:
        GenerationError: when ``n`` unique pairs cannot be made within the attempt budget;
            the message gives the count reached and where attempts failed.
    """
    for pair, _ in generate_with_bindings(paradigm, n, seed):
        yield pair


class Attempts:
    """The bounded attempt budget of one generation run, with every failure's reason counted.

    Shared by minimal pairs and probe items: ``ATTEMPTS_PER_PAIR`` attempts per requested
    record (at least ``MIN_ATTEMPTS``), and at most ``MAX_FAILURES_IN_A_ROW`` failures in a row.
    """

    def __init__(self, n: int) -> None:
        self.budget = max(MIN_ATTEMPTS, ATTEMPTS_PER_PAIR * n)
        self.failures: Counter = Counter()
        self.count = self.in_a_row = 0

    def another(self) -> bool:
        """Count one more attempt; False when the budget or the failure streak is spent."""
        if self.count >= self.budget or self.in_a_row >= MAX_FAILURES_IN_A_ROW:
            return False
        self.count += 1
        return True

    def fail(self, reason: str) -> None:
        self.failures[reason] += 1
        self.in_a_row += 1

    def succeed(self) -> None:
        self.in_a_row = 0

    def reasons(self) -> str:
        """The three most common failures, ``reason: count; ...``."""
        return "; ".join(f"{reason}: {count}" for reason, count in self.failures.most_common(3))

    def draw(self, source: Any, rng: random.Random) -> tuple[Bindings, dict[str, Any]] | None:
        """Sample and render once from a paradigm or probe suite; on a dead end count why, return None."""
        bindings = source.sample(rng)
        if isinstance(bindings, DeadEnd):
            self.fail(f"slot '{bindings.where}' had no candidate")
            return None
        try:
            return bindings, source.render(bindings)
        except RenderDeadEnd as exc:
            self.fail(f"template could not render ({exc})")
            return None


def generate_with_bindings(paradigm: Paradigm, n: int, seed: int = 0) -> Iterator[tuple[MinimalPair, Bindings]]:
    """Like :func:`generate`, also yielding the slot values each pair was rendered from."""
    if n < 0:
        raise GenerationError("the number of pairs must be at least 0")
    rng = paradigm_rng(seed, paradigm.uid)
    spec = paradigm.spec
    seen_good: set[str] = set()
    seen_bad: set[str] = set()
    attempts = Attempts(n)
    made = 0
    common = dict(field=spec.field, linguistics_term=spec.linguistics_term, UID=spec.uid,
                  simple_LM_method=spec.simple_LM_method, one_prefix_method=spec.one_prefix_method,
                  two_prefix_method=spec.two_prefix_method,
                  lexically_identical=paradigm.lexically_identical, seed=seed,
                  lexicon_hash=paradigm.lexicon.fingerprint, spec_hash=paradigm.loaded.sha,
                  blimpgen_version=__version__)
    while made < n:
        if not attempts.another():
            raise GenerationError(_shortfall(paradigm, n, made, attempts))
        drawn = attempts.draw(paradigm, rng)
        if drawn is None:
            continue
        bindings, fields = drawn
        good, bad = fields["sentence_good"], fields["sentence_bad"]
        if good == bad:
            attempts.fail("good and bad sentence were equal")
            continue
        if good in seen_good or bad in seen_bad:
            attempts.fail("duplicate sentence")
            continue
        seen_good.add(good)
        seen_bad.add(bad)
        attempts.succeed()
        yield MinimalPair(pairID=str(made), pair_id=f"{spec.uid}-{made:05d}", slots=provenance(bindings),
                          **fields, **common), bindings
        made += 1


def _shortfall(paradigm: Paradigm, n: int, made: int, attempts: Attempts) -> str:
    return (f"{paradigm.loaded.file}: {paradigm.uid}: made {made} of {n} unique pairs in {attempts.count} attempts "
            f"({attempts.reasons()}). Loosen the slot constraints, add lexicon entries, or ask for fewer pairs.")


def load_paradigms(uids: list[str] | None = None, paradigm_paths: tuple[Path | str, ...] = (),
                   lexicon: Lexicon | None = None) -> list[Paradigm]:
    """Build the named paradigms (all when ``uids`` is None), shipped plus user folders.

    Raises:
        SpecErrors: for invalid specs; UnknownNameError for unknown UIDs.
    """
    from blimpgen.errors import UnknownNameError

    specs: dict[str, LoadedSpec] = load_specs(tuple(paradigm_paths)) if paradigm_paths else load_shipped_specs()
    lexicon = lexicon or load_lexicon()
    if uids is None:
        uids = sorted(specs)
    missing = [u for u in uids if u not in specs]
    if missing:
        raise UnknownNameError("paradigm", missing[0], specs)
    return [build_paradigm(specs[uid], lexicon) for uid in uids]


def write_jsonl(paradigm: Paradigm, n: int, seed: int, out: Path | str | None, progress: bool = True) -> int:
    """Generate into a file atomically (or stream to stdout when ``out`` is None)."""
    pairs = generate(paradigm, n, seed)
    if progress and n >= 2000:
        from tqdm import tqdm
        # Only on a terminal (disable=None), and only once a run has taken a second.
        pairs = tqdm(pairs, total=n, desc=paradigm.uid, unit="pair", file=sys.stderr, delay=1.0, leave=False,
                     disable=None)
    count = 0
    if out is None:
        for pair in pairs:
            sys.stdout.write(dumps_record(pair) + "\n")
            count += 1
        sys.stdout.flush()
        return count
    with atomic_writer(out) as handle:
        for pair in pairs:
            handle.write(dumps_record(pair) + "\n")
            count += 1
    return count
