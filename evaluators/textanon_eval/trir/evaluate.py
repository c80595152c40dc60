"""``evaluate-trir``: the re-identification attack on given anonymizations, over one or more seeds, written to
a metrics JSON (and a markdown report)."""

from dataclasses import replace
from pathlib import Path
from typing import List, Optional, Sequence

from textanon_eval.provenance import write_metrics
from textanon_eval.scoring import combine_seeds
from textanon_eval.trir.attack import TrirSettings, run_trir
from textanon_eval.trir.data import TrirError, TrirInputs, load_anonymized, load_dict, load_inputs
from textanon_eval.trir.published import PUBLISHED_50_EVAL, compare, markdown


def trir_inputs(
    data: Path,
    anonymized: List[str],
    originals: Optional[Path],
    dev: Optional[Path],
    bk_column: str,
    max_bk_chars: Optional[int],
    methods: Optional[str],
) -> TrirInputs:
    """The attack's inputs: a WikiActors records file (its ``*_abstract`` columns, ``methods`` a comma-separated
    subset of them) or a background-knowledge file ``{individual: text}``; plus ``anonymized`` files
    (``NAME=PATH``: texts, or offsets into ``originals``) and a ``dev`` set. Bad input raises TrirError."""
    inputs = load_inputs(data, bk_key=bk_column, max_bk_chars=max_bk_chars)
    if methods:
        keep = [m.strip() for m in methods.split(",") if m.strip()]
        unknown = [m for m in keep if m not in inputs.anonymized and m not in inputs.empty]
        if unknown:
            raise TrirError(f"unknown method(s) {unknown}; available: {sorted(inputs.anonymized)}")
        inputs.anonymized = {m: inputs.anonymized[m] for m in keep if m in inputs.anonymized}
        inputs.empty = {m: v for m, v in inputs.empty.items() if m in keep}
    origs = load_dict(originals) if originals else None
    for spec in anonymized:
        if "=" not in spec:
            raise TrirError(f"--anonymized expects NAME=PATH, got {spec!r}")
        name, path = spec.split("=", 1)
        if not Path(path).is_file():
            raise TrirError(f"--anonymized {name}: file {path} not found")
        if name in inputs.anonymized:
            raise TrirError(f"--anonymized {name}: method name already used")
        inputs.anonymized[name], inputs.empty[name] = load_anonymized(path, origs)
    if dev:
        inputs.dev = load_dict(dev)
    return inputs


def evaluate_trir(
    data: Path,
    output: Path,
    settings: TrirSettings,
    seeds: Sequence[int] = (42,),
    anonymized: Sequence[str] = (),
    originals: Optional[Path] = None,
    dev: Optional[Path] = None,
    bk_column: str = "public_knowledge",
    methods: Optional[str] = None,
    cache_dir: Optional[Path] = None,
    threads: Optional[int] = None,
    progress: bool = True,
    markdown_out: Optional[Path] = None,
    compare_published: bool = False,
) -> dict:
    """Run the attack (:func:`run_trir`) once per seed on :func:`trir_inputs`, combine the seeds
    (:func:`combine_seeds`), compare with the published WikiActors TRIR if asked, write ``output`` (JSON with
    provenance) and ``markdown_out``. Returns the result; bad input raises TrirError (or a JSON error)."""
    inputs = trir_inputs(data, list(anonymized), originals, dev, bk_column, settings.max_bk_chars, methods)
    if not inputs.anonymized and not inputs.empty:
        raise TrirError(
            "no anonymized documents: give a records file with *_abstract columns or --anonymized NAME=PATH"
        )
    runs = {seed: run_trir(inputs, replace(settings, seed=seed), cache_dir, progress, threads) for seed in seeds}
    result = combine_seeds(runs)
    result["settings"].setdefault("model_label", Path(result["settings"]["model"]).name)
    if compare_published:
        result["published"] = PUBLISHED_50_EVAL
        result["comparison"] = compare(result["trir"], PUBLISHED_50_EVAL)
    write_metrics(output, result)
    if markdown_out:
        markdown_out.parent.mkdir(parents=True, exist_ok=True)
        markdown_out.write_text(markdown(result, f"TRIR on {data.name}", result.get("published")), encoding="utf-8")
    return result
