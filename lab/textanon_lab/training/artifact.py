"""The shipped entity model: a trained spaCy pipeline folder committed under ``assets/`` with its checksum in
``project.yml``'s ``assets`` (weasel's directory checksum, what ``spacy project assets`` checks).

``export_model`` copies a trained ``tok2vec + ner`` pipeline (``train-court``'s ``model-best``) to the artifact
folder without what inference does not need: the training-time string store (every word of the training texts:
court judgments, biographies) is cut down to the strings the model's own components name (its labels), since the
hash embeddings read a token's features from hashes, never from the store. ``export_model`` then checks that the
exported model tags a probe text exactly as the original does, and writes the new checksum into ``project.yml``.
``verify_asset`` is what the build runs before assembling a pipeline around the artifact.
"""

import json
import re
import shutil
from pathlib import Path
from typing import Callable, Iterable, List, Optional

import spacy
import srsly
from weasel.util import get_checksum

#: sentences the exported model must tag exactly as the trained one (entities and their labels)
PROBE_TEXTS = (
    "The applicant, Mr Ivan Petrov, was born in 1967 and lives in Chisinau. He is a veterinary surgeon.",
    "On 14 September 2009 the Supreme Court of Justice dismissed application no. 12345/06 lodged by her lawyer.",
    "She starred in Hackers (1995) opposite Jonny Lee Miller and won an Academy Award for Best Actress.",
)
FILES_DROPPED = ("model-last",)


class ArtifactError(ValueError):
    """An artifact missing, or not the one ``project.yml`` names."""


def checksum(path: Path) -> str:
    """weasel's checksum of a file or folder (MD5 over the sorted files' bytes): ``spacy project assets`` checks it."""
    return get_checksum(path)


def asset_entry(project: Path, dest: str) -> dict:
    """The ``assets`` entry of ``project`` (a project.yml) whose ``dest`` is ``dest``."""
    config = srsly.read_yaml(project)
    for asset in config.get("assets", []):
        if Path(asset.get("dest", "")) == Path(dest):
            return asset
    raise ArtifactError(f"{project}: no assets entry with dest {dest!r}")


def verify_asset(project: Path, dest: str, root: Optional[Path] = None) -> str:
    """Raise :class:`ArtifactError` unless ``root/dest`` exists and has the checksum its ``project.yml`` entry gives;
    returns the checksum."""
    entry = asset_entry(project, dest)
    expected = entry.get("checksum")
    if not expected:
        raise ArtifactError(f"{project}: the assets entry {dest!r} has no checksum")
    path = (root or project.parent) / dest
    if not path.exists():
        raise ArtifactError(f"{path} is missing: it is committed with the repository (or rebuilt by its command)")
    found = checksum(path)
    if found != expected:
        raise ArtifactError(
            f"{path}: checksum {found} is not the {expected} of {project} (a changed model: rebuild it with the "
            "command named in its assets entry, which rewrites the checksum)"
        )
    return found


def _entities(nlp, texts: Iterable[str]) -> List[list]:
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in nlp.pipe(texts)]


def _kept_strings(nlp) -> List[str]:
    """Strings the components name: the entity labels (and the moves built from them)."""
    kept = set()
    for _, pipe in nlp.pipeline:
        for label in getattr(pipe, "labels", ()) or ():
            kept.add(label)
        moves = getattr(pipe, "moves", None)
        if moves is not None:
            kept.update(moves.get_class_name(i) for i in range(moves.n_moves))
    return sorted(kept)


def export_model(
    model: Path,
    dest: Path,
    project: Optional[Path] = None,
    probe: Iterable[str] = PROBE_TEXTS,
    log: Callable[[str], None] = print,
) -> str:
    """Copy the trained pipeline ``model`` to ``dest`` (replaced) with its string store cut to :func:`_kept_strings`,
    check the copy tags ``probe`` as ``model`` does (else :class:`ArtifactError`, ``dest`` removed), and write the
    checksum into the ``project`` (project.yml) entry whose dest is ``dest`` (relative to the project folder) when
    given. Returns the checksum."""
    model, dest = Path(model), Path(dest)
    if not (model / "config.cfg").exists():
        raise ArtifactError(f"{model} is no spaCy pipeline folder (no config.cfg)")
    nlp = spacy.load(model)
    kept = _kept_strings(nlp)
    before = _entities(nlp, probe)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(model, dest, ignore=shutil.ignore_patterns(*FILES_DROPPED))
    (dest / "vocab" / "strings.json").write_text(json.dumps(kept), encoding="utf8")
    after = _entities(spacy.load(dest), probe)
    if after != before:
        shutil.rmtree(dest)
        raise ArtifactError(f"{dest}: the exported model tags the probe texts differently from {model}")
    digest = checksum(dest)
    size = sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())
    log(f"exported {model} -> {dest}: {size / 1e6:.2f} MB, {len(kept)} strings kept, checksum {digest}")
    if project is not None:
        write_checksum(project, dest.resolve().relative_to(project.resolve().parent).as_posix(), digest)
        log(f"{project}: checksum of {dest} updated")
    return digest


def write_checksum(project: Path, dest: str, digest: str) -> None:
    """Set the ``checksum:`` line of the ``assets`` entry of ``dest`` in ``project`` (the text edited in place, so
    comments and layout stay); the entry must already have a ``checksum:`` line."""
    asset_entry(project, dest)  # raises when there is none
    text = project.read_text(encoding="utf8")
    pattern = re.compile(
        r'(- dest: "?' + re.escape(dest) + r'"?\n(?:[ \t]+[^-\s][^\n]*\n)*?[ \t]+checksum: )"?[0-9a-f]*"?'
    )
    new, n = pattern.subn(lambda m: f'{m.group(1)}"{digest}"', text, count=1)
    if n != 1:
        raise ArtifactError(f"{project}: the assets entry {dest!r} has no checksum line to update")
    project.write_text(new, encoding="utf8")
