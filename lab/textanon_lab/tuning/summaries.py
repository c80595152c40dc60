"""Summary pseudo-abstracts: tuning documents that resemble the evaluated abstracts.

A Wikipedia abstract summarises the whole article (birth, the roles of a career, awards), while its body
tells the same facts at length: the evaluated abstracts are very easy to re-identify from the bodies (98 %
by BM25 with only the name masked). The *lead paragraph* of a body (:func:`textanon_lab.tuning.threshold.
pseudo_abstracts`) is not a summary — it is the "early life" section — and is much harder (32 %), so
settings tuned on it do not transfer.

:func:`summary_pseudo_abstracts` draws instead **sentences from across the body** of an actor who is NOT
evaluated (evenly spaced, the first sentence included) until the pseudo-abstract is ``share`` of the
body long (between ``min_chars`` and ``max_chars``, as the evaluated abstracts are 1.5k characters of
~20k-character bodies), and **cuts them out** of the body: the rest is what the judge and the defender's
index may see. Only bodies of at least ``min_body_chars`` characters are used (the evaluated actors are
famous: their bodies are long; most random actors' are not).
"""

import re
from pathlib import Path
from typing import List, Tuple

from textanon.io.datasets.wikiactors import read_wikiactors

SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+[\"”’)]*|$)", re.M)


def sentence_spans(text: str) -> List[Tuple[int, int]]:
    """Character spans of the sentences of ``text`` (a run ending with ., ! or ? or a line end; stripped)."""
    out = []
    for m in SENTENCE.finditer(text):
        s, e = m.start(), m.end()
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


def split_summary(body: str, share: float = 0.15, min_chars: int = 800, max_chars: int = 1500) -> Tuple[str, str]:
    """``(pseudo-abstract, rest)``: evenly spaced sentences of ``body`` (see the module docstring), and the
    body without them (paragraph breaks kept)."""
    spans = sentence_spans(body)
    if not spans:
        return "", body
    goal = min(max(share * len(body), min_chars), max_chars)
    picked: List[int] = []
    for m in range(1, len(spans) + 1):
        picked = sorted({round(j * len(spans) / m) for j in range(m)})
        if sum(spans[i][1] - spans[i][0] for i in picked) >= goal:
            break
    chosen = set(picked)
    abstract = " ".join(body[s:e] for i, (s, e) in enumerate(spans) if i in chosen)
    rest, at = [], 0
    for i, (s, e) in enumerate(spans):
        if i in chosen:
            rest.append(body[at:s])
            at = e
    rest.append(body[at:])
    text = "".join(rest)
    text = "\n".join(" ".join(line.split()) for line in text.split("\n"))
    return abstract, "\n".join(p for p in text.split("\n") if p.strip())


def summary_pseudo_abstracts(
    background_path: Path,
    exclude_path: Path,
    min_body_chars: int = 5000,
    share: float = 0.15,
    min_chars: int = 800,
    max_chars: int = 1500,
) -> List[dict]:
    """``[{"name", "abstract", "body", "eligible"}]`` for every background actor not in ``exclude_path`` (the
    evaluated file) with a body: ``abstract`` = :func:`split_summary` of bodies of at least
    ``min_body_chars`` characters (``eligible``), ``body`` = the rest (every actor's body is an attack
    candidate; shorter bodies are kept whole and are not eligible)."""
    excluded = {r.name for r in read_wikiactors(exclude_path)}
    out = []
    for rec in read_wikiactors(background_path):
        name, body = rec.name, rec.background
        if not name or name in excluded or not body or not body.strip():
            continue
        if len(body) >= min_body_chars:
            abstract, rest = split_summary(body, share, min_chars, max_chars)
            out.append({"name": name, "abstract": abstract, "body": rest, "eligible": bool(abstract and rest)})
        else:
            out.append({"name": name, "abstract": "", "body": body, "eligible": False})
    return out
