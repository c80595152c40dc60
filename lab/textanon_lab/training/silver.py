"""Silver training corpus: the rule/gazetteer/NER recognizer applied to public biographies.

Published recipe (Papadopoulou, Lison et al. 2022): run generic NER + gazetteer over public text, keep
the spans as silver annotations in the 8 TAB categories, then train a tagger on them. We take the
WikiActors article bodies (``public_knowledge``), split them into paragraphs, run the recognizer of the
core pipeline (no language model, no masking), and write the spans as ``doc.ents`` (non-overlapping,
longest first) into DocBin train/dev files. Individuals listed in ``exclude`` — every person whose
abstract is evaluated — are left out entirely. Train/dev are split by individual, so no biography is in
both.
"""

import json
import random
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.util import filter_spans

import textanon  # noqa: F401
from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.docbin import write_docbin
from textanon.io.datasets.wikiactors import read_wikiactors
from textanon.io.progress import bar
from textanon.labels import TAB_LABELS


def read_bodies(paths: Sequence[Path], exclude_evaluated: bool = True) -> List[Tuple[str, str]]:
    """``(individual, body)`` from WikiActors JSON files; first occurrence of a name wins.

    With ``exclude_evaluated``, an individual with an ``original_abstract`` in ANY of the files is
    dropped (their abstract is an evaluation document)."""
    records = [r for p in paths for r in read_wikiactors(p)]
    evaluated: Set[str] = {r.name for r in records if exclude_evaluated and r.original}
    seen: Set[str] = set()
    bodies = []
    for r in records:
        name, body = r.name, r.background
        if not name or not body or name in seen or name in evaluated:
            continue
        seen.add(name)
        bodies.append((name, body))
    return bodies


def paragraphs(text: str, min_chars: int = 40, max_chars: int = 3000) -> Iterator[str]:
    """Non-trivial paragraphs (blank-line or newline separated), long ones cut at sentence ends."""
    for para in text.splitlines():
        para = " ".join(para.split())
        while len(para) > max_chars:
            cut = para.rfind(". ", 0, max_chars)
            cut = cut + 1 if cut > min_chars else max_chars
            yield para[:cut]
            para = para[cut:].lstrip()
        if len(para) >= min_chars:
            yield para


def spans_to_ents(doc: Doc, spans_key: str = DEFAULT_SPANS_KEY) -> Doc:
    """Copy the recognizer's spans into ``doc.ents`` (overlaps resolved: longest wins)."""
    spans = [s for s in doc.spans.get(spans_key, []) if s.label_ in TAB_LABELS]
    doc.ents = filter_spans(spans)
    return doc


def build_silver(
    nlp: Language, bodies: List[Tuple[str, str]], dev_share: float = 0.1, seed: int = 0, progress=None
) -> Dict[str, object]:
    """Annotate ``bodies`` and return ``{"train": DocBin, "dev": DocBin, "stats": {...}}``."""
    names = [name for name, _ in bodies]
    rng = random.Random(seed)
    dev_names = set(rng.sample(names, max(1, int(round(len(names) * dev_share))))) if len(names) > 1 else set()
    splits = {"train": DocBin(store_user_data=False), "dev": DocBin(store_user_data=False)}
    counts: Dict[str, Counter] = {"train": Counter(), "dev": Counter()}
    tokens: Counter = Counter()
    items = [(("dev" if name in dev_names else "train"), para) for name, body in bodies for para in paragraphs(body)]
    texts = (para for _, para in items)
    docs = annotate_with_ents(nlp, texts)
    for (split, _), doc in zip(items, progress(docs, total=len(items)) if progress else docs):
        splits[split].add(doc)
        counts[split].update(e.label_ for e in doc.ents)
        tokens[split] += len(doc)
    stats = {
        "individuals": {"train": len(names) - len(dev_names), "dev": len(dev_names)},
        "paragraphs": {s: len(b) for s, b in splits.items()},
        "tokens": dict(tokens),
        "entities_by_label": {s: {label: counts[s].get(label, 0) for label in TAB_LABELS} for s in splits},
    }
    return {"train": splits["train"], "dev": splits["dev"], "stats": stats}


def annotate_with_ents(nlp: Language, texts: Iterable[str]) -> Iterator[Doc]:
    """Run ``nlp`` up to the entity recognizer (no LM, no masking); spans become ``doc.ents``."""
    keep = [n for n in nlp.pipe_names[: nlp.pipe_names.index("textanon_entity_recognizer") + 1]]
    with nlp.select_pipes(enable=keep):
        for doc in nlp.pipe(texts, batch_size=64):
            spans_to_ents(doc)
            doc.spans.clear()
            yield doc


def write_silver(result: Dict[str, object], output_dir: Path, prefix: str = "silver") -> Dict[str, str]:
    """Write ``<prefix>-train.spacy``, ``<prefix>-dev.spacy`` and ``<prefix>-stats.json``."""
    output_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for split in ("train", "dev"):
        paths[split] = str(write_docbin(result[split], output_dir / f"{prefix}-{split}.spacy"))
    stats_path = output_dir / f"{prefix}-stats.json"
    stats_path.write_text(json.dumps(result["stats"], indent=2) + "\n", encoding="utf8")
    paths["stats"] = str(stats_path)
    return paths


def limit_bodies(bodies: List[Tuple[str, str]], max_individuals: Optional[int], seed: int = 0) -> List[Tuple[str, str]]:
    """A reproducible random subset of at most ``max_individuals`` bodies."""
    if not max_individuals or max_individuals >= len(bodies):
        return bodies
    return random.Random(seed).sample(bodies, max_individuals)


def silver_corpus(
    inputs: Sequence[Path],
    output_dir: Path,
    model: str,
    max_individuals: Optional[int] = None,
    dev_share: float = 0.1,
    seed: int = 0,
    keep_evaluated: bool = False,
    prefix: str = "silver",
    progress=None,
) -> Tuple[dict, Dict[str, str]]:
    """``silver``: the public biographies of the WikiActors ``inputs`` (evaluated individuals left out unless
    ``keep_evaluated``; at most ``max_individuals``) annotated by the recognizer of the pipeline ``model``
    (:func:`build_silver`), written by :func:`write_silver`. Returns (stats, paths); ValueError if no body is
    left to annotate."""

    bodies = limit_bodies(read_bodies(inputs, exclude_evaluated=not keep_evaluated), max_individuals, seed)
    if not bodies:
        raise ValueError("No public_knowledge bodies left to annotate")
    result = build_silver(spacy.load(model), bodies, dev_share, seed, progress=progress)
    paths = write_silver(result, output_dir, prefix)
    return result["stats"], paths


def silver_progress(items: Iterable, total: Optional[int]) -> Iterable:
    """The progress bar of the ``silver`` command over the paragraphs annotated."""
    return bar(items, total=total, desc="silver", unit="para")


def silver_summary(stats: dict, paths: Dict[str, str]) -> str:
    """The line the ``silver`` command reports: paragraphs and tokens written, and where."""
    return (
        f"Silver corpus: {stats['paragraphs']} paragraphs, {stats['tokens']} tokens -> {paths['train']}, {paths['dev']}"
    )


def label_rows(stats: dict) -> List[Tuple[str, int, int]]:
    """``(label, train entities, dev entities)`` per label of a silver corpus's ``stats``."""
    by_label = stats["entities_by_label"]
    return [(label, by_label["train"][label], by_label["dev"][label]) for label in by_label["train"]]
