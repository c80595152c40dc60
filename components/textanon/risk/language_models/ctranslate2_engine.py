"""CTranslate2 engine of a causal LM: the Hugging Face model converted once (int8 or float32 weights) and cached.

The converted model is cached under ``cache_dir()/ctranslate2/`` in a folder whose name holds the sha256 of the
*source file* (the GGUF, or the safetensors weights of a Hugging Face folder), the CTranslate2 version and the
quantization: a changed model file or a new converter gives a new folder, never a stale one. It is built with
:func:`~textanon.risk.language_models.loading.cached_conversion` (atomic, one process at a time), offline: the converter
reads the model already loaded in torch.
"""

import copy
import hashlib
import json
import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from textanon.risk.language_models.base import ScoringEngine
from textanon.risk.language_models.loading import cache_dir, cached_conversion

#: engine names -> CTranslate2 weight quantization of the converted model
QUANTIZATIONS = {"ctranslate2-int8": "int8", "ctranslate2-fp32": "float32"}

_HASHES: Dict[Tuple[str, int, int], str] = {}

#: the process in which a CTranslate2 engine ran several threads (its OpenMP runtime, GNU libgomp, then has a thread
#: team); a process forked from it inherits the value
_TEAM_PID: Optional[int] = None


def fork_safe_threads(threads: int) -> int:
    """The intra-op threads a new CTranslate2 engine may use in this process: ``threads``, except in a process forked
    from one whose engine ran several threads, where it is 1 — GNU OpenMP's thread team does not survive a fork, and
    starting a new team in the child never returns (measured: a child of a 2-thread parent hangs at creation with 2
    threads, works with 1). Workers of ``anonymize --n-process N`` get ``cores // N`` threads anyway."""
    global _TEAM_PID
    threads = max(1, threads)
    if _TEAM_PID is not None and _TEAM_PID != os.getpid():
        return 1
    if threads > 1:
        _TEAM_PID = os.getpid()
    return threads


def file_sha256(path: Path) -> str:
    """sha256 (hex) of a file, remembered per (path, size, mtime) within the process."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _HASHES:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _HASHES[key] = digest.hexdigest()
    return _HASHES[key]


def source_files(name_or_path: str, gguf_file: Optional[str], loaded_from: str) -> List[Path]:
    """The files the model's weights come from: the GGUF if there is one, else the safetensors (or ``.bin``) weights
    of the local folder the model was loaded from. ValueError when none is a local file (a Hub name)."""
    if gguf_file:
        gguf = Path(gguf_file) if Path(gguf_file).is_absolute() else Path(name_or_path) / gguf_file
        if gguf.is_file():
            return [gguf]
    folder = Path(loaded_from)
    if folder.is_dir():
        for pattern in ("*.safetensors", "*.bin"):
            found = sorted(folder.glob(pattern))
            if found:
                return found
    raise ValueError("no local weights file to key the converted model on")


def conversion_key(sources: Sequence[Path], quantization: str, converter_version: str) -> str:
    """Cache folder name of a converted model: the sha256 of its source files, the converter version, the
    quantization (e.g. ``1f0c...-ct2_4.8.5-int8``)."""
    digest = hashlib.sha256("".join(file_sha256(p) for p in sources).encode()).hexdigest()[:24]
    return f"{digest}-ct2_{converter_version}-{quantization}"


def convert_ctranslate2(model, tokenizer, loaded_from: str, sources: Sequence[Path], quantization: str) -> Path:
    """The cached CTranslate2 conversion of the loaded Hugging Face ``model`` (built if missing; the converter
    reads a copy: it takes the modules it has converted out of the model it is given)."""
    import ctranslate2
    from ctranslate2.converters import TransformersConverter

    class _LoadedModelConverter(TransformersConverter):
        """Converts the model and tokenizer already in memory (no download, no second conversion of a GGUF)."""

        def load_model(self, model_class, model_name_or_path, **kwargs):
            return copy.deepcopy(model)

        def load_tokenizer(self, tokenizer_class, model_name_or_path, **kwargs):
            return tokenizer

    folder = cache_dir() / "ctranslate2" / conversion_key(sources, quantization, ctranslate2.__version__)

    def build(tmp: Path) -> None:
        _LoadedModelConverter(str(loaded_from)).convert(str(tmp), quantization=quantization, force=True)

    return cached_conversion(folder, build)


class CTranslate2Engine(ScoringEngine):
    """A causal LM converted to CTranslate2 (``Generator.score_batch``): rows of different lengths in one call
    without padding; ``score_batch`` returns ``ln p(row[i] | row[:i])`` for ``i = 1 .. len(row) - 1``, of which the
    requested positions are taken. Not fork-safe (its thread pool): :class:`CausalLM` makes a new one per process."""

    fork_safe = False

    def __init__(self, folder: Path, name: str, device: str = "cpu", threads: int = 1):
        import ctranslate2

        self.name, self.folder = name, Path(folder)
        compute = "int8_float32" if "int8" in name else "float32"
        if device.startswith("cuda"):
            compute = "int8_float16" if "int8" in name else "float16"
        index = int(device.split(":")[1]) if device.startswith("cuda:") else 0
        self.generator = ctranslate2.Generator(
            str(self.folder),
            device="cuda" if device.startswith("cuda") else "cpu",
            device_index=index,
            compute_type=compute,
            intra_threads=fork_safe_threads(threads),
            inter_threads=1,
        )
        self.vocabulary = _vocabulary(self.folder)

    def row_logprobs(self, rows: Sequence[Sequence[int]], positions: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """One ``score_batch`` call over ``rows`` (token ids -> the model's token strings)."""
        if not rows:
            return []
        vocab = self.vocabulary
        tokens = [[vocab[i] for i in row] for row in rows]
        results = self.generator.score_batch(tokens, max_input_length=0)
        out = []
        for result, pos in zip(results, positions):
            scores = np.asarray(result.log_probs, dtype=np.float32)
            out.append(scores[np.asarray(pos, dtype=np.int64) - 1] if len(pos) else np.zeros(0, dtype=np.float32))
        return out


def _vocabulary(folder: Path) -> List[str]:
    """Token strings of the converted model, by token id (``vocabulary.json`` or ``vocabulary.txt``)."""
    if (folder / "vocabulary.json").is_file():
        return json.loads((folder / "vocabulary.json").read_text(encoding="utf-8"))
    return (folder / "vocabulary.txt").read_text(encoding="utf-8").split("\n")
