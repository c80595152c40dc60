"""NMI utility metric: how well the anonymized documents keep the cluster structure of the originals.

Both the original and the anonymized documents are embedded (all-MiniLM-L6-v2) and
clustered with k-means. k is picked on the originals by the best mean silhouette
over ``ks`` (averaged over the seeds); then for every seed both sets are clustered
with that k and the normalized mutual information (sklearn, arithmetic mean
normalisation) between the two labelings is computed; the result is the mean over
seeds. Identical inputs give NMI = 1. ``originals_self_nmi`` (mean NMI between clusterings of the
originals with different seeds) tells how stable the clustering itself is.
"""

from itertools import combinations
from typing import Dict, Optional, Sequence

import numpy as np
from sklearn.cluster import KMeans
from sklearn.metrics import normalized_mutual_info_score, silhouette_score
from tqdm import tqdm

from textanon_eval.embeddings import default_encoder
from textanon_eval.errors import EvaluationError

DEFAULT_KS = tuple(range(2, 11))
DEFAULT_SEEDS = 10


def _kmeans(x: np.ndarray, k: int, seed: int) -> np.ndarray:
    return KMeans(n_clusters=k, n_init=10, random_state=seed).fit_predict(x)


def choose_k(orig: np.ndarray, ks: Sequence[int] = DEFAULT_KS, seeds: int = DEFAULT_SEEDS) -> Dict[int, float]:
    """Mean silhouette of the originals' k-means clustering for each usable k."""
    n = len(orig)
    usable = [k for k in ks if 2 <= k < n]
    if not usable:
        raise EvaluationError(f"NMI needs at least 3 documents to cluster, got {n}")
    scores = {}
    for k in usable:
        vals = []
        for seed in range(seeds):
            labels = _kmeans(orig, k, seed)
            vals.append(silhouette_score(orig, labels) if len(set(labels)) > 1 else -1.0)
        scores[k] = float(np.mean(vals))
    return scores


def nmi_embeddings(
    orig: np.ndarray,
    anon: np.ndarray,
    ks: Sequence[int] = DEFAULT_KS,
    seeds: int = DEFAULT_SEEDS,
    k: Optional[int] = None,
) -> dict:
    """NMI between the k-means clusterings of two aligned embedding matrices."""
    if orig.shape != anon.shape:
        raise EvaluationError(f"original and anonymized sets differ in shape: {orig.shape} vs {anon.shape}")
    silhouettes = choose_k(orig, ks, seeds) if k is None else {}
    if k is None:
        k = max(silhouettes, key=silhouettes.get)
    values = [normalized_mutual_info_score(_kmeans(orig, k, s), _kmeans(anon, k, s)) for s in range(seeds)]
    return {
        "nmi": float(np.mean(values)),
        "std": float(np.std(values)),
        "k": int(k),
        "seeds": seeds,
        "silhouette": silhouettes,
    }


def self_agreement(orig: np.ndarray, k: int, seeds: int = DEFAULT_SEEDS) -> float:
    """Mean NMI between k-means clusterings of the originals with different seeds.

    A reference for reading NMI values: when the originals have no clear cluster structure the
    clustering itself is unstable and an anonymization cannot be expected to score above this.
    """

    labels = [_kmeans(orig, k, s) for s in range(seeds)]
    pairs = [normalized_mutual_info_score(a, b) for a, b in combinations(labels, 2)]
    return float(np.mean(pairs)) if pairs else 1.0


def nmi_corpus(
    originals: Dict[str, str],
    anonymizations: Dict[str, Dict[str, str]],
    encoder=None,
    ks: Sequence[int] = DEFAULT_KS,
    seeds: int = DEFAULT_SEEDS,
    progress: bool = True,
) -> Dict[str, dict]:
    """NMI per method. ``anonymizations``: method -> id -> anonymized text (ids must cover the originals)."""

    encoder = encoder or default_encoder()
    ids = list(originals)
    for doc_id in ids:
        if not isinstance(originals[doc_id], str) or not originals[doc_id].strip():
            raise EvaluationError(f"record {doc_id!r}: the original document is empty")
    orig = encoder.encode([originals[d] for d in ids])
    silhouettes = choose_k(orig, ks, seeds)
    k = max(silhouettes, key=silhouettes.get)
    out = {}
    for method, by_id in tqdm(anonymizations.items(), desc="NMI", unit="method", disable=not progress):
        unknown = [d for d in by_id if d not in originals]
        if unknown:
            raise EvaluationError(f"record {unknown[0]!r} of method {method!r} has no original document")
        missing = [d for d in ids if d not in by_id or by_id[d] is None]
        if missing:
            raise EvaluationError(
                f"method {method!r} has no anonymization for record {missing[0]!r} (NMI needs every document)"
            )
        anon = encoder.encode([by_id[d] for d in ids])
        res = nmi_embeddings(orig, anon, seeds=seeds, k=k)
        res["silhouette"] = silhouettes
        out[method] = res
    if out:
        ceiling = self_agreement(orig, k, seeds)
        for res in out.values():
            res["originals_self_nmi"] = ceiling
    return out
