"""Inputs the cases share, built once per test session and copied into a case's workspace.

``BASE(uid)`` is the reliability report's valid paradigm (the ``blimpgen new`` skeleton without
comments); ``TPL(uid, X)`` is BASE with ``X`` written before the good template's first slot.
The named prerequisites (``needs=`` of a case) are the report's shared data:

* ``DATA/``: ``npi_present_1.jsonl`` and ``wh_island.jsonl``, 100 pairs each, seed 7;
* ``d1.jsonl``: 10 pairs of npi_present_1;
* ``hits/``: ``validate batch --data DATA --pairs-per-paradigm 5 --judgments 3 --items-per-hit 5 --seed 0``;
* ``results.csv``: ``validate simulate --batch hits --workers 8`` (6 assignments);
* ``MODEL/``: a tiny random GPT-2 with a byte-level BPE tokenizer trained on generated sentences;
* ``corpus.txt``: 2,000 generated sentences, one per line (n-gram training).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

BASE_TEXT = """\
uid: {uid}
field: semantics
linguistics_term: npi_licensing
description: "x"
simple_LM_method: true
one_prefix_method: false
two_prefix_method: false
contrast: [noun]
slots:
  subj: {{kind: dp, head: "(N and animate) or PN"}}
  verb: {{kind: verb_group, verb: "frames=transitive", subject: subj}}
  noun: {{kind: word, where: "N and plural_type=regular and fits(verb.arg2)", distinct: [subj]}}
  dem: {{kind: word, where: "D and demonstrative and number = noun.number"}}
good: "{good}"
bad: "{bad}"
"""
GOOD = "{{ subj }} {{ verb }} {{ dem }} {{ noun }}."
BAD = "{{ subj }} {{ verb }} {{ dem }} {{ noun | flip('number') }}."


def base(uid: str, good: str = GOOD, bad: str = BAD, head: str = "", tail: str = "") -> str:
    """BASE(uid): the report's valid paradigm (``head``/``tail`` text before and after it)."""
    return head + BASE_TEXT.format(uid=uid, good=good, bad=bad) + tail


def tpl(uid: str, x: str) -> str:
    """TPL(uid, X): BASE with ``X`` written at the start of the good template (X is YAML-escaped)."""
    escaped = x.replace("\\", "\\\\").replace('"', '\\"')
    return base(uid, good=escaped + GOOD)


def chk(uid: str, n: int = 5) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CHK: ``blimpgen check P`` and ``blimpgen gen`` of the paradigm into out.jsonl."""
    return (
        ("check", "P"),
        ("gen", "--paradigm", uid, "--paradigm-path", "P", "-n", str(n), "--quiet", "-o", "out.jsonl"),
    )


# ----------------------------------------------------------------------------- shared data


def _gen(target: Path, uid: str, n: int, seed: int) -> None:
    from blimpgen.generators.catalog import Catalog
    from blimpgen.generators.generate import write_records

    target.parent.mkdir(parents=True, exist_ok=True)
    source = Catalog.from_environment(environ={}).build([uid])[0]
    write_records(source, n, seed, target, progress=False)


def build_data(folder: Path) -> None:
    for uid in ("npi_present_1", "wh_island"):
        _gen(folder / f"{uid}.jsonl", uid, 100, 7)


def build_d1(path: Path) -> None:
    _gen(path, "npi_present_1", 10, 0)


def build_hits(folder: Path, data: Path) -> None:
    from blimpgen.validate.batch import write_batch
    from blimpgen.validate.design import BatchOptions

    write_batch(data, folder, BatchOptions(pairs_per_paradigm=5, judgments=3, items_per_hit=5, seed=0))


def build_results(path: Path, hits: Path) -> None:
    from blimpgen.validate.simulate import SimulationOptions, simulate

    simulate(hits, path, SimulationOptions(workers=8))


def build_corpus(path: Path, data: Path) -> None:
    lines = []
    for file in sorted(data.glob("*.jsonl")):
        for line in file.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            lines += [record["sentence_good"], record["sentence_bad"]]
    path.write_text("\n".join(lines * 10) + "\n", encoding="utf-8")


def build_model(folder: Path, corpus: Path) -> None:
    """A tiny random GPT-2 (2 layers, width 64, 64 positions) with a 300-token byte-level BPE."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    texts = corpus.read_text(encoding="utf-8").splitlines()
    tok.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=300, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        ),
    )
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>")
    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=64,
        n_embd=64,
        n_layer=2,
        n_head=2,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    model = GPT2LMHeadModel(config).eval()
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)


class Prerequisites:
    """Builds each named prerequisite once, on first use, in ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.builders: dict[str, Callable[[Path], None]] = {
            "DATA": build_data,
            "d1.jsonl": build_d1,
            "hits": lambda p: build_hits(p, self.get("DATA")),
            "results.csv": lambda p: build_results(p, self.get("hits")),
            "corpus.txt": lambda p: build_corpus(p, self.get("DATA")),
            "MODEL": lambda p: build_model(p, self.get("corpus.txt")),
        }

    def get(self, name: str) -> Path:
        path = self.root / name
        if not path.exists():
            self.builders[name](path)
        return path

    def copy_into(self, ws: Path, names: tuple[str, ...]) -> None:
        for name in names:
            source = self.get(name)
            if source.is_dir():
                shutil.copytree(source, ws / name)
            else:
                shutil.copyfile(source, ws / name)
