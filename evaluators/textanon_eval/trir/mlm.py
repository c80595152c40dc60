"""Optional further masked-language-model pretraining of the encoder on BD ∪ BD′ (resumable per epoch).

Encoders shipped without an MLM head (e.g. all-MiniLM-L6-v2) get a freshly initialised head tied to
the word embeddings, so this stage is off by default (``pretrain_epochs=0``).
"""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import torch
from tqdm import tqdm

from textanon_eval.trir.model import WindowSet

logger = logging.getLogger(__name__)


@dataclass
class MlmConfig:
    epochs: int = 3
    lr: float = 5e-5
    batch_size: int = 8
    window: int = 512
    overlap: int = 128
    mask_probability: float = 0.15
    seed: int = 42


def mask_tokens(ids: torch.Tensor, attention: torch.Tensor, tokenizer, prob: float, generator: torch.Generator):
    """BERT masking: ``prob`` of the real tokens are predicted; 80 % [MASK], 10 % random, 10 % unchanged."""
    labels = ids.clone()
    special = (ids == tokenizer.cls_token_id) | (ids == tokenizer.sep_token_id) | (attention == 0)
    chosen = (torch.rand(ids.shape, generator=generator) < prob) & ~special
    labels[~chosen] = -100
    ids = ids.clone()
    roll = torch.rand(ids.shape, generator=generator)
    ids[chosen & (roll < 0.8)] = tokenizer.mask_token_id
    random_pos = chosen & (roll >= 0.8) & (roll < 0.9)
    ids[random_pos] = torch.randint(len(tokenizer), ids.shape, generator=generator)[random_pos]
    return ids, labels


def pretrain(
    model_path: str, tokenizer, texts: Sequence[str], folder: Path, cfg: MlmConfig, device, progress: bool = True
) -> Path:
    """Folder of the further-pretrained model (``folder/model``); resumes from ``folder/last.pt``."""
    from transformers import AutoModelForMaskedLM

    out = folder / "model"
    if (folder / "done").exists():
        return out
    folder.mkdir(parents=True, exist_ok=True)
    model = AutoModelForMaskedLM.from_pretrained(model_path).float().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, eps=1e-6, weight_decay=0.0)
    start_epoch = 1
    if (folder / "last.pt").exists():
        state = torch.load(folder / "last.pt", map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"] + 1
        logger.info("resuming MLM pretraining after epoch %d", state["epoch"])
    data = WindowSet.build(tokenizer, texts, [0] * len(texts), cfg.window, cfg.overlap)
    for epoch in range(start_epoch, cfg.epochs + 1):
        model.train()
        gen = torch.Generator().manual_seed(cfg.seed + 1000 + epoch)
        order = torch.randperm(len(data.ids), generator=gen).tolist()
        bar = tqdm(
            range(0, len(order), cfg.batch_size),
            desc=f"MLM epoch {epoch}/{cfg.epochs}",
            unit="batch",
            disable=not progress,
        )
        total = 0.0
        for step, start in enumerate(bar, 1):
            batch = data.batch(order[start : start + cfg.batch_size], tokenizer.pad_token_id, "cpu")
            ids, labels = mask_tokens(batch["input_ids"], batch["attention_mask"], tokenizer, cfg.mask_probability, gen)
            if not (labels != -100).any():
                continue
            loss = model(
                input_ids=ids.to(device), attention_mask=batch["attention_mask"].to(device), labels=labels.to(device)
            ).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            total += loss.item()
            bar.set_postfix(loss=f"{total / step:.3f}")
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, folder / "last.pt"
        )
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    (folder / "last.pt").unlink(missing_ok=True)
    (folder / "done").touch()
    return out
