"""Masked-LM backend: log p(span tokens | context with the span masked), as in the published method."""

from typing import Dict, List, Optional, Sequence

import numpy as np

from textanon.risk.language_models.base import CharSpan, LanguageModel, pad_batch, spans_to_tokens
from textanon.risk.language_models.loading import load_masked_lm


class MaskedLM(LanguageModel):
    """Each pass masks a group of spans and reads the log-probs of their original tokens.

    ``passes=None`` masks every span on its own (risk scoring); a partition of the
    span indices masks several spans at once (N-term alternation for TPI). Every
    masked group is predicted in a window of at most ``window`` tokens around it.
    """

    def __init__(
        self, name_or_path: str = "bert-base-uncased", window: int = 512, batch_size: int = 8, device: str = "cpu"
    ):
        self.name = f"masked:{name_or_path}"
        self.name_or_path, self.window, self.batch_size, self.device = name_or_path, window, batch_size, device

    def span_token_logprobs(
        self, text: str, spans: Sequence[CharSpan], passes: Optional[Sequence[Sequence[int]]] = None
    ) -> List[np.ndarray]:
        """Log-probs of each span's original tokens with the spans of its pass masked (``None``: one pass per span)."""
        import torch

        tokenizer, model = load_masked_lm(self.name_or_path, self.device)
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        ids, offsets = enc["input_ids"], [tuple(o) for o in enc["offset_mapping"]]
        span_tokens = spans_to_tokens(offsets, spans)
        if passes is None:
            passes = [[i] for i in range(len(spans))]
        jobs = [job for p in passes for job in self._jobs(p, span_tokens, len(ids))]
        logprob_of: Dict[int, float] = {}
        for b in range(0, len(jobs), self.batch_size):
            batch = jobs[b : b + self.batch_size]
            rows = []
            for start, end, masked in batch:
                row = list(ids[start:end])
                for t in masked:
                    row[t - start] = tokenizer.mask_token_id
                rows.append([tokenizer.cls_token_id] + row + [tokenizer.sep_token_id])
            input_ids, attention = pad_batch(rows, tokenizer.pad_token_id)
            with torch.inference_mode():
                logits = model(input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)).logits
            for r, (start, _end, masked) in enumerate(batch):
                pos = torch.tensor([t - start + 1 for t in masked], device=logits.device)
                lp = torch.log_softmax(logits[r, pos].float(), dim=-1)
                target = torch.tensor([ids[t] for t in masked], device=lp.device)
                for t, v in zip(masked, lp.gather(1, target[:, None])[:, 0].tolist()):
                    logprob_of[t] = v
        return [np.asarray([logprob_of[t] for t in toks], dtype=np.float32) for toks in span_tokens]

    def _jobs(self, span_ids: Sequence[int], span_tokens: List[List[int]], n: int):
        """Split one pass into windows: (start, end, masked token indices) with end - start <= window - 2."""
        tokens = sorted({t for i in span_ids for t in span_tokens[i]})
        size = self.window - 2
        group: List[int] = []
        for t in tokens:
            if group and t - group[0] >= size // 2:
                yield self._window(group, n, size)
                group = []
            group.append(t)
        if group:
            yield self._window(group, n, size)

    @staticmethod
    def _window(group: List[int], n: int, size: int):
        centre = (group[0] + group[-1]) // 2
        start = max(0, min(centre - size // 2, n - size))
        return start, min(n, start + size), group
