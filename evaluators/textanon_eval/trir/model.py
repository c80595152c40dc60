"""Sliding windows, classifier fine-tuning (checkpointed each epoch, early stopping) and document prediction."""

import csv
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

import torch
from tqdm import tqdm

from textanon.risk.language_models.base import pad_batch

logger = logging.getLogger(__name__)


def encode(tokenizer, texts: Sequence[str]) -> List[List[int]]:
    """Token ids of each text, without special tokens (no truncation)."""
    if not texts:
        return []
    return tokenizer(list(texts), add_special_tokens=False, truncation=False, verbose=False)["input_ids"]


def windows(ids: List[int], length: int, overlap: int, cls: int, sep: int) -> List[List[int]]:
    """``[CLS] chunk [SEP]`` windows of at most ``length`` tokens; consecutive chunks share ``overlap`` tokens."""
    body = length - 2
    step = body - overlap
    if body < 1 or step < 1:
        raise ValueError(f"window {length} with overlap {overlap} leaves no room to slide (need length - 2 > overlap)")
    out, start = [], 0
    while True:
        out.append([cls] + ids[start : start + body] + [sep])
        if start + body >= len(ids):
            return out
        start += step


@dataclass
class WindowSet:
    """Windows of several documents: ``doc[i]`` is the document of window ``i``, ``labels`` per document."""

    ids: List[List[int]]
    doc: torch.Tensor
    labels: torch.Tensor  # one per document; -1 = individual unknown to the classifier

    @classmethod
    def build(cls, tokenizer, texts: Sequence[str], labels: Sequence[int], length: int, overlap: int) -> "WindowSet":
        """Tokenize ``texts`` and cut each into windows of ``length`` tokens overlapping by ``overlap``."""
        ids, doc = [], []
        for d, tok in enumerate(encode(tokenizer, texts)):
            for w in windows(tok, length, overlap, tokenizer.cls_token_id, tokenizer.sep_token_id):
                ids.append(w)
                doc.append(d)
        return cls(ids, torch.tensor(doc, dtype=torch.long), torch.tensor(list(labels), dtype=torch.long))

    @property
    def window_labels(self) -> torch.Tensor:
        """The label of each window (its document's)."""
        return self.labels[self.doc]

    def batch(self, index: Sequence[int], pad_id: int, device) -> Dict[str, torch.Tensor]:
        """Model inputs (padded ``input_ids``, ``attention_mask``) of the windows ``index``, on ``device``."""
        ids, mask = pad_batch([self.ids[i] for i in index], pad_id)
        return {"input_ids": ids.to(device), "attention_mask": mask.to(device)}


@torch.no_grad()
def document_logits(model, data: WindowSet, pad_id: int, device, batch_size: int = 64) -> torch.Tensor:
    """Sum of the window logits of each document: (documents, classes)."""
    model.eval()
    out = None
    for start in range(0, len(data.ids), batch_size):
        index = list(range(start, min(start + batch_size, len(data.ids))))
        logits = model(**data.batch(index, pad_id, device)).logits.float().cpu()
        if out is None:
            out = torch.zeros((len(data.labels), logits.shape[1]))
        out.index_add_(0, data.doc[index], logits)
    return out if out is not None else torch.zeros((len(data.labels), model.config.num_labels))


def score(model, data: WindowSet, pad_id: int, device, batch_size: int = 64) -> Dict[str, float]:
    """accuracy (%), correct, total and loss (cross-entropy of the mean window logits, known individuals)."""
    logits = document_logits(model, data, pad_id, device, batch_size)
    pred = logits.argmax(1)
    correct = int((pred == data.labels).sum())
    known = data.labels >= 0
    n_win = torch.bincount(data.doc, minlength=len(data.labels)).clamp(min=1).unsqueeze(1)
    loss = (
        float(torch.nn.functional.cross_entropy(logits[known] / n_win[known], data.labels[known]))
        if known.any()
        else 0.0
    )
    total = len(data.labels)
    return {
        "accuracy": 100.0 * correct / total if total else 0.0,
        "correct": correct,
        "total": total,
        "loss": loss,
        "predictions": pred.tolist(),
    }


@dataclass
class TrainConfig:
    epochs: int = 15
    patience: int = 5
    batch_size: int = 16
    lr: float = 5e-5
    seed: int = 42
    eval_batch_size: int = 64


def _better(row: dict, best: Optional[dict]) -> bool:
    """Higher dev accuracy wins; ties go to the lower dev loss."""
    if best is None:
        return True
    return (row["dev_accuracy"], -row["dev_loss"]) > (best["dev_accuracy"], -best["dev_loss"])


def train(
    model,
    train_set: WindowSet,
    cfg: TrainConfig,
    folder: Path,
    pad_id: int,
    device,
    dev: Optional[WindowSet] = None,
    monitor: Optional[Dict[str, WindowSet]] = None,
    progress: bool = True,
    on_epoch: Optional[Callable[[dict], None]] = None,
) -> List[dict]:
    """Fine-tune ``model`` on window labels; resumable from ``folder/last.pt``; best weights in ``folder/best.pt``.

    Model selection and early stopping use the dev set (accuracy, then loss); without one the last epoch is kept.
    ``monitor`` sets are scored after each epoch for the per-epoch log only.
    """
    folder.mkdir(parents=True, exist_ok=True)
    last, best_path, done = folder / "last.pt", folder / "best.pt", folder / "done"
    model.to(device)  # before the optimizer state is loaded, so that it lands on the same device
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0)
    history: List[dict] = []
    best, stale = None, 0
    if last.exists():
        state = torch.load(last, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        history, best, stale = state["history"], state["best"], state["stale"]
        logger.info("resuming fine-tuning after epoch %d", len(history))
    if done.exists():
        return history
    labels = train_set.window_labels
    for epoch in range(len(history) + 1, cfg.epochs + 1):
        model.train()
        t0 = time.perf_counter()
        order = torch.randperm(len(train_set.ids), generator=torch.Generator().manual_seed(cfg.seed + epoch)).tolist()
        total, steps = 0.0, 0
        bar = tqdm(
            range(0, len(order), cfg.batch_size), desc=f"epoch {epoch}/{cfg.epochs}", unit="batch", disable=not progress
        )
        for start in bar:
            index = order[start : start + cfg.batch_size]
            out = model(**train_set.batch(index, pad_id, device), labels=labels[index].to(device))
            out.loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            total, steps = total + out.loss.item(), steps + 1
            bar.set_postfix(loss=f"{total / steps:.3f}")
        row = {"epoch": epoch, "train_loss": total / max(steps, 1), "train_s": round(time.perf_counter() - t0, 1)}
        if dev is not None:
            s = score(model, dev, pad_id, device, cfg.eval_batch_size)
            row.update(dev_accuracy=s["accuracy"], dev_loss=s["loss"])
        for name, data in (monitor or {}).items():
            row[f"acc:{name}"] = score(model, data, pad_id, device, cfg.eval_batch_size)["accuracy"]
        row["epoch_s"] = round(time.perf_counter() - t0, 1)
        history.append(row)
        improved = dev is None or _better(row, best)
        if improved:
            if dev is not None and best is not None and row["dev_accuracy"] <= best["dev_accuracy"]:
                stale += 1  # only a lower loss: keep the weights, but count towards patience
            else:
                stale = 0
            best = row
            torch.save(model.state_dict(), best_path)
        else:
            stale += 1
        row["selected"] = best["epoch"]
        _append_csv(folder / "epochs.csv", row)
        torch.save(
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "history": history,
                "best": best,
                "stale": stale,
            },
            last,
        )
        if on_epoch:
            on_epoch(row)
        if dev is not None and stale >= cfg.patience:
            logger.info("early stopping after epoch %d (best epoch %d)", epoch, best["epoch"])
            break
    done.touch()
    return history


def load_best(model, folder: Path) -> None:
    """Load the weights of the selected epoch (``folder/best.pt``) into ``model``."""
    model.load_state_dict(torch.load(folder / "best.pt", map_location="cpu", weights_only=True))


def _append_csv(path: Path, row: dict) -> None:
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)
