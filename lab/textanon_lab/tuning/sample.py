"""The tuning sample: seeded pseudo-abstracts of actors who are never evaluated.

Every WikiActors background record whose actor is NOT one of the evaluated individuals (``exclude_path``: the
evaluated abstracts' file, never read otherwise) has a Wikipedia body; its lead paragraphs (at least ``min_chars``
characters) are cut out and become a pseudo-abstract (:func:`pseudo_abstracts`), the rest of the body stays as that
actor's background knowledge. A :class:`TuningSample` draws ``n`` of them with a seed; the threshold and the
search-risk tuning (:mod:`.threshold`, :mod:`.search`) both run on one and record its provenance.
"""

import random
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from textanon.io.datasets.wikiactors import read_wikiactors


def split_lead(body: str, min_chars: int = 300) -> Tuple[str, str]:
    """``(lead, rest)``: the first paragraphs of ``body`` (newline-separated) until ``min_chars`` characters."""
    paragraphs = [p.strip() for p in body.split("\n") if p.strip()]
    lead: List[str] = []
    while paragraphs and sum(map(len, lead)) < min_chars:
        lead.append(paragraphs.pop(0))
    return " ".join(lead), "\n".join(paragraphs)


def pseudo_abstracts(
    background_path: Path, exclude_path: Path, min_chars: int = 300, min_rest_chars: int = 500
) -> List[dict]:
    """``[{"name", "abstract", "body", "eligible"}]`` for every background actor not in ``exclude_path`` (the
    evaluated file) whose body keeps some text once its lead is cut out (all are attack candidates);
    ``eligible``: the lead has ``min_chars`` and the rest ``min_rest_chars`` characters (tuning documents)."""
    excluded = {r.name for r in read_wikiactors(exclude_path)}
    out = []
    for rec in read_wikiactors(background_path):
        name, body = rec.name, rec.background
        if not name or name in excluded or body is None:
            continue
        lead, rest = split_lead(body, min_chars)
        if rest:
            out.append(
                {
                    "name": name,
                    "abstract": lead,
                    "body": rest,
                    "eligible": len(lead) >= min_chars and len(rest) >= min_rest_chars,
                }
            )
    return out


@dataclass(frozen=True)
class TuningSample:
    """``n`` pseudo-abstracts (all when None or 0) drawn with ``seed`` from the eligible ones of a pool: by default
    :func:`pseudo_abstracts` of ``background_path`` less the actors of ``exclude_path`` (leads of ``min_chars``)."""

    background_path: Path
    exclude_path: Path
    n: Optional[int] = 150
    seed: int = 0
    min_chars: int = 300

    def draw(self, pool: Optional[Sequence[dict]] = None) -> Tuple[List[dict], List[dict], List[dict]]:
        """``(pool, eligible, items)``: the pool (``pool``, else the pseudo-abstracts), its eligible documents and
        the seeded sample of ``n`` of them."""
        pool = (
            list(pool)
            if pool is not None
            else pseudo_abstracts(self.background_path, self.exclude_path, self.min_chars)
        )
        eligible = [p for p in pool if p["eligible"]]
        n = self.n
        items = random.Random(self.seed).sample(eligible, n) if n and n < len(eligible) else list(eligible)
        return pool, eligible, items

    def provenance(self) -> dict:
        """Where the tuning documents come from (the evaluated records are never used) and the seed."""
        return {
            "background": str(self.background_path),
            "excluded_evaluated_file": str(self.exclude_path),
            "evaluated_records_used": 0,
            "seed": self.seed,
        }
