"""Faulty pipeline folders for the reliability suite, assembled from the normal pipeline without loading it.

The folder keeps the normal pipeline's weights (symbolic links) and gets an edited ``config.cfg``: a
setting overridden (a failing language model, a solver time limit of ~0) or a fault component of
:mod:`textanon_lab.testing.faults` inserted. The LLM pipelines are the ``textanon_llm_anonymizer`` used as
``docs/llm.md`` shows (alone on a blank pipeline), or inserted before the optimizer, with a scripted model.
"""

import importlib
import shutil
from pathlib import Path
from typing import Dict, Optional, Tuple

import spacy
from spacy.util import load_config

from textanon_lab.testing import faults  # noqa: F401  (registers the scripted model)

Insert = Tuple[str, dict, str]  # (component name, its config block, name of the component it goes before)


def base_pipeline_path(model: str) -> Path:
    """The folder of a pipeline given as a folder or as an installed package name."""
    path = Path(model)
    if (path / "config.cfg").exists():
        return path.resolve()
    module = importlib.import_module(model)
    root = Path(module.__file__).parent
    found = sorted(p.parent for p in root.glob("*/config.cfg"))
    if not found:
        raise FileNotFoundError(f"no pipeline folder (config.cfg) inside package {model!r}")
    return found[-1]


def _set(cfg: dict, dotted: str, value) -> None:
    *parents, leaf = dotted.split(".")
    node = cfg
    for key in parents:
        node = node[key]
    node[leaf] = value


def derived_pipeline(
    base: Path, dest: Path, overrides: Optional[Dict[str, object]] = None, insert: Optional[Insert] = None
) -> Path:
    """``dest``: ``base`` with ``overrides`` (``{"components.x.y": value}``) applied and ``insert`` added."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    config = load_config(base / "config.cfg", interpolate=False)
    for dotted, value in (overrides or {}).items():
        _set(config, dotted, value)
    if insert is not None:
        name, block, before = insert
        pipeline = list(config["nlp"]["pipeline"])
        pipeline.insert(pipeline.index(before), name)
        config["nlp"]["pipeline"] = pipeline
        config["components"][name] = block
    config.to_disk(dest / "config.cfg")
    for entry in base.iterdir():
        if entry.name != "config.cfg":
            (dest / entry.name).symlink_to(entry.resolve(), target_is_directory=entry.is_dir())
    return dest


def llm_block(mode: str) -> dict:
    """Config of a ``textanon_llm_anonymizer`` whose model answers every prompt with a scripted bad reply."""
    return {
        "factory": "textanon_llm_anonymizer",
        "model": {"@llm_models": "textanon.testing.ScriptedLLM.v1", "mode": mode},
    }


def llm_alone_pipeline(dest: Path, mode: str) -> Path:
    """A blank English pipeline with only the LLM anonymizer (as ``docs/llm.md`` shows) and a scripted model."""

    if dest.exists():
        shutil.rmtree(dest)
    nlp = spacy.blank("en")
    block = llm_block(mode)
    nlp.add_pipe(block.pop("factory"), config=block)
    nlp.to_disk(dest)
    return dest


def fault_pipeline(kind: str, base: Path, dest: Path) -> Path:
    """The pipeline folder of a fault ``kind`` (see :data:`FAULTS`)."""
    if kind.startswith("llm_alone_"):
        return llm_alone_pipeline(dest, kind[len("llm_alone_") :])
    overrides, insert = FAULTS[kind]
    return derived_pipeline(base, dest, overrides, insert)


#: fault kind -> (config overrides, inserted component)
FAULTS: Dict[str, Tuple[Dict[str, object], Optional[Insert]]] = {
    "lm_failure": ({"components.textanon_lm_risk.model": {"@misc": "textanon.testing.FailingLM.v1"}}, None),
    "solver_timeout": ({"components.textanon_optimizer.time_limit_s": 1e-9}, None),
    "component_exception": ({}, ("textanon_fault_raise", {"factory": "textanon_fault_raise"}, "textanon_lm_risk")),
    "killed_worker": ({}, ("textanon_fault_kill", {"factory": "textanon_fault_kill"}, "textanon_lm_risk")),
    "llm_garbage_in_pipeline": ({}, ("textanon_llm_anonymizer", llm_block("garbage"), "textanon_optimizer")),
}
