"""Forward-pass engines of a causal LM: the one place a backend (torch fp32, int8 runtimes, GPU) computes
log-probabilities. :class:`~textanon.risk.language_models.causal.CausalLM` decides *which* token rows to score
(windows, batching); an engine only turns rows of token ids into next-token log-probabilities."""

import copy
import ctypes
import logging
from typing import List, Optional, Sequence, Tuple

import numpy as np

from textanon.risk.language_models.base import ScoringEngine, pad_batch
from textanon.risk.language_models.ctranslate2_engine import (
    QUANTIZATIONS,
    CTranslate2Engine,
    convert_ctranslate2,
    source_files,
)

logger = logging.getLogger(__name__)


class TorchEngine(ScoringEngine):
    """The reference engine: a Hugging Face causal LM in torch (fp32 on CPU); the vocabulary projection and the
    softmax run only at the requested positions."""

    name = "torch-fp32"

    def __init__(self, model, pad_id: int, device: str = "cpu"):
        self.model, self.pad_id, self.device = model, pad_id, device

    def row_logprobs(self, rows: Sequence[Sequence[int]], positions: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """One padded forward pass over ``rows``; log-softmax of the logits before each requested position."""
        import torch

        if not rows:
            return []
        input_ids, mask = pad_batch(rows, self.pad_id)
        head, lm_head = self.model.get_decoder(), self.model.get_output_embeddings()
        out = []
        with torch.inference_mode():
            hidden = head(input_ids=input_ids.to(self.device), attention_mask=mask.to(self.device)).last_hidden_state
            for r, pos in enumerate(positions):
                if not len(pos):
                    out.append(np.zeros(0, dtype=np.float32))
                    continue
                pos_t = torch.as_tensor(list(pos), device=hidden.device)
                lp = torch.log_softmax(lm_head(hidden[r, pos_t - 1]).float(), dim=-1)
                target = input_ids[r, pos_t.cpu()].to(lp.device)
                out.append(lp.gather(1, target[:, None])[:, 0].cpu().numpy())
        return out


class TorchInt8Engine(TorchEngine):
    """torch with dynamic int8 quantization (``quantize_dynamic``) of the decoder's ``nn.Linear`` layers; the
    vocabulary projection (tied to the embeddings) stays fp32. CPU only; the fp32 model is left untouched."""

    name = "torch-int8"

    def __init__(self, model, pad_id: int, device: str = "cpu"):
        import torch

        if device != "cpu":
            raise ValueError("torch dynamic int8 quantization runs on CPU only")
        decoder = torch.ao.quantization.quantize_dynamic(
            copy.deepcopy(model.get_decoder()), {torch.nn.Linear}, dtype=torch.qint8
        )
        super().__init__(_WithDecoder(model, decoder), pad_id, device)


class _WithDecoder:
    """A causal LM seen through another decoder (same output embeddings)."""

    def __init__(self, model, decoder):
        self._model, self._decoder = model, decoder

    def get_decoder(self):
        return self._decoder

    def get_output_embeddings(self):
        return self._model.get_output_embeddings()


#: engine setting values (``engine`` of ``textanon.SmolLM2Scorer.v1`` / ``textanon.CausalLM.v1``)
ENGINES = ("torch-fp32", "torch-int8", "ctranslate2-int8", "ctranslate2-fp32")
REFERENCE = "torch-fp32"


def create_engine(
    engine: str,
    tokenizer,
    model,
    pad_id: int,
    device: str = "cpu",
    name_or_path: str = "",
    gguf_file: Optional[str] = None,
    threads: int = 1,
) -> Tuple[ScoringEngine, Optional[str]]:
    """``(engine, fallback reason)``: the engine named ``engine`` for the loaded ``model``; when it cannot be created
    (package missing, conversion failed, device unsupported) the torch fp32 reference, with a warning logged (no
    document text) and the reason returned (``None`` when the requested engine was created)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == REFERENCE:
        return TorchEngine(model, pad_id, device), None
    try:
        if engine == "torch-int8":
            return TorchInt8Engine(model, pad_id, device), None
        loaded_from = str(getattr(model, "name_or_path", "") or name_or_path)
        sources = source_files(name_or_path, gguf_file, loaded_from)
        folder = convert_ctranslate2(model, tokenizer, loaded_from, sources, QUANTIZATIONS[engine])
        return CTranslate2Engine(folder, engine, device, threads), None
    except Exception as err:  # noqa: BLE001 — any failure: the reference engine (slower, same masking)
        reason = f"{engine} unavailable ({type(err).__name__}); using {REFERENCE}"
        logger.warning("language model engine %s", reason)
        return TorchEngine(model, pad_id, device), reason


#: engines inherited through a fork that must never be destroyed in the child (see :func:`keep_forever`)
_KEPT: List[object] = []


def keep_forever(engine: object) -> None:
    """Keep an engine inherited from a parent process alive until this process ends, without ever destroying it.

    A CTranslate2 engine owns worker threads that do not survive a fork: in the child, destroying it waits on
    those threads' condition variables and never returns. The child makes its own engine; the inherited one is
    given an extra reference (never released: not even at interpreter shutdown is it destroyed) and left alone.
    The memory stays shared with the parent (copy-on-write)."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(engine))
    _KEPT.append(engine)
