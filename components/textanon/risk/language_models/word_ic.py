"""Word-frequency information content: an IC model independent of the anonymizer.

textanon's optimizer minimizes the information it removes as scored by SmolLM2, so a TPI computed with
the same SmolLM2 favours textanon by construction. This model is the headline alternative: the
information content of a word is ``-ln p(word)`` with ``p`` its frequency in the ``wordfreq`` package's
English word list (a blend of Wikipedia, subtitles, news, books, web text and social media; no
relation to any model textanon uses). It plugs into :class:`textanon_eval.tpi.InformationContent`
like a language model (spec ``"wordfreq"`` or ``"wordfreq:LANG"``):

* a span's "tokens" are its ``wordfreq.tokenize`` words; each gets ``ln max(p(word), floor)``;
* the TPI definition is unchanged: a term's IC is the MAXIMUM IC of its words (the least frequent word),
  exactly as for sub-word tokens of a language model, so only the model differs between the two TPIs;
* out-of-vocabulary words (frequency 0: rare names, invented strings) get the floor ``1e-9``, one tenth
  of the smallest frequency the English "large" list stores (1e-8, Zipf 1.0): IC = 20.72 nats, more
  informative than any listed word, and finite;
* the model is context-free (same value wherever the word occurs), so term alternation does not apply.
"""

from importlib.metadata import PackageNotFoundError, version
from typing import List, Optional, Sequence, Tuple

import numpy as np
import wordfreq

from textanon.risk.language_models.base import LanguageModel

CharSpan = Tuple[int, int]
#: frequency given to words absent from the list (the list stops at 1e-8)
OOV_FLOOR = 1e-9
SPEC = "wordfreq"


class WordFrequencyModel(LanguageModel):
    """IC from word frequencies (``wordfreq``): context-free, deterministic, CPU-only, no weights to load."""

    def __init__(self, lang: str = "en", floor: float = OOV_FLOOR):
        if not 0 < floor < 1:
            raise ValueError(f"the out-of-vocabulary floor must be in (0, 1), got {floor}")
        self.lang, self.floor = lang, floor
        self.version = getattr(wordfreq, "__version__", None) or _version()
        self.name = f"{SPEC}:{lang}"
        self._tokenize, self._frequency = wordfreq.tokenize, wordfreq.word_frequency

    def word_logprob(self, word: str) -> float:
        """``ln max(p(word), floor)`` in nats."""
        return float(np.log(max(self._frequency(word, self.lang), self.floor)))

    def span_token_logprobs(
        self, text: str, spans: Sequence[CharSpan], passes: Optional[Sequence[Sequence[int]]] = None
    ) -> List[np.ndarray]:
        """Log-frequencies of the words of each span (``passes`` is ignored: the model has no context)."""
        return [
            np.asarray([self.word_logprob(w) for w in self._tokenize(text[s:e], self.lang)], dtype=np.float64)
            for s, e in spans
        ]

    @property
    def settings(self) -> dict:
        """What the metrics files record about this model."""
        return {
            "model": self.name,
            "model_type": "word frequency (context-free)",
            "wordfreq_version": self.version,
            "oov_floor": self.floor,
            "oov_ic_nats": round(-float(np.log(self.floor)), 3),
            "term_ic": "max over the term's words of -ln max(frequency, floor) (nats)",
            "alternation": "not applicable (context-free model)",
        }


def _version() -> Optional[str]:
    try:
        return version("wordfreq")
    except PackageNotFoundError:
        return None


def is_word_frequency_spec(spec) -> bool:
    """True for ``"wordfreq"`` and ``"wordfreq:LANG"``."""
    return isinstance(spec, str) and (spec == SPEC or spec.startswith(SPEC + ":"))


def from_spec(spec: str) -> WordFrequencyModel:
    """``"wordfreq"`` -> English; ``"wordfreq:fr"`` -> French."""
    _, _, lang = spec.partition(":")
    return WordFrequencyModel(lang or "en")
