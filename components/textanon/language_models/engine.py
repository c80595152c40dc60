"""Forward-pass engines of a causal LM: the one place a backend (torch fp32, int8 runtimes, GPU) computes
log-probabilities. :class:`~textanon.language_models.causal.CausalLM` decides *which* token rows to score
(windows, batching); an engine only turns rows of token ids into next-token log-probabilities."""

from abc import ABC, abstractmethod
from typing import List, Sequence

import numpy as np


class ScoringEngine(ABC):
    """Scores rows of token ids with a causal LM.

    ``row_logprobs(rows, positions)`` returns, for each row ``r``, the array of natural-log probabilities
    ``ln p(rows[r][p] | rows[r][:p])`` for every ``p`` in ``positions[r]`` (each ``p >= 1``), in that order.
    """

    #: short identifier reported in metrics (e.g. ``torch-fp32``)
    name: str = "engine"

    @abstractmethod
    def row_logprobs(self, rows: Sequence[Sequence[int]], positions: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """Log p(token | left context in its row) at the requested positions of each row."""


class TorchEngine(ScoringEngine):
    """The reference engine: a Hugging Face causal LM in torch (fp32 on CPU); the vocabulary projection and the
    softmax run only at the requested positions."""

    name = "torch-fp32"

    def __init__(self, model, pad_id: int, device: str = "cpu"):
        self.model, self.pad_id, self.device = model, pad_id, device

    def row_logprobs(self, rows: Sequence[Sequence[int]], positions: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """One padded forward pass over ``rows``; log-softmax of the logits before each requested position."""
        import torch

        from .base import pad_batch

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
