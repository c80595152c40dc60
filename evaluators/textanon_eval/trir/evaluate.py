"""``evaluate-trir``: the re-identification attack on given anonymizations, over one or more seeds, written to
a metrics JSON (and a markdown report)."""

from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from textanon_eval.provenance import write_metrics
from textanon_eval.scoring import combine_seeds
from textanon_eval.trir.attack import TrirSettings, run_trir
from textanon_eval.trir.data import TrirError, TrirInputs, load_anonymized, load_dict, load_inputs
from textanon_eval.trir.published import PUBLISHED_50_EVAL, compare, markdown

#: :class:`TrirSettings` fields that ``evaluate-trir`` takes from its options of the same name
ATTACK_OPTIONS = (
    "model",
    "epochs",
    "patience",
    "window",
    "overlap",
    "batch_size",
    "lr",
    "keep_mask_marks",
    "pretrain_epochs",
    "seed",
    "max_bk_chars",
    "device",
)
#: :class:`TrirSettings` fields that ``evaluate-trir`` sets off with a ``--no-...`` switch: field -> option
NEGATED_OPTIONS = {
    "use_dev": "no_dev",
    "anonymize_background": "no_bd_prime",
    "curate": "no_curation",
    "monitor": "no_monitor",
}


@dataclass(frozen=True)
class TrirRunSettings:
    """What :func:`evaluate_trir` attacks and writes, beside the attack's :class:`TrirSettings`: one attack per
    seed of ``seeds``; the inputs of :func:`trir_inputs` (``anonymized`` ``NAME=PATH`` files, ``originals``,
    ``dev``, ``bk_column``, ``methods``); the stage cache ``cache_dir``, torch CPU ``threads``; a ``markdown_out``
    report and the comparison with the published TRIR (``compare_published``)."""

    seeds: Sequence[int] = (42,)
    anonymized: Sequence[str] = ()
    originals: Optional[Path] = None
    dev: Optional[Path] = None
    bk_column: str = "public_knowledge"
    methods: Optional[str] = None
    cache_dir: Optional[Path] = None
    threads: Optional[int] = None
    markdown_out: Optional[Path] = None
    compare_published: bool = False


def settings_from_options(options: Mapping[str, Any], seeds: Sequence[int]) -> Tuple[TrirSettings, TrirRunSettings]:
    """The attack and run settings of ``evaluate-trir``'s ``options`` (parameter name -> value; ``seeds``: the
    parsed seeds): :data:`ATTACK_OPTIONS` as given, :data:`NEGATED_OPTIONS` negated, the other
    :class:`TrirRunSettings` fields by name; TrirSettings fields without an option keep their defaults."""
    attack = {name: options[name] for name in ATTACK_OPTIONS}
    attack |= {name: not options[option] for name, option in NEGATED_OPTIONS.items()}
    run = {f.name: options[f.name] for f in fields(TrirRunSettings) if f.name not in ("seeds", "anonymized")}
    return TrirSettings(**attack), TrirRunSettings(tuple(seeds), tuple(options["anonymized"]), **run)


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
    data: Path, output: Path, settings: TrirSettings, run: TrirRunSettings = TrirRunSettings(), progress: bool = True
) -> dict:
    """Run the attack (:func:`run_trir`) once per seed of ``run.seeds`` on :func:`trir_inputs`, combine the seeds
    (:func:`combine_seeds`), compare with the published WikiActors TRIR if asked, write ``output`` (JSON with
    provenance) and ``run.markdown_out``. Returns the result; bad input raises TrirError (or a JSON error)."""
    inputs = trir_inputs(
        data, list(run.anonymized), run.originals, run.dev, run.bk_column, settings.max_bk_chars, run.methods
    )
    if not inputs.anonymized and not inputs.empty:
        raise TrirError(
            "no anonymized documents: give a records file with *_abstract columns or --anonymized NAME=PATH"
        )
    runs = {
        seed: run_trir(inputs, replace(settings, seed=seed), run.cache_dir, progress, run.threads) for seed in run.seeds
    }
    result = combine_seeds(runs)
    result["settings"].setdefault("model_label", Path(result["settings"]["model"]).name)
    if run.compare_published:
        result["published"] = PUBLISHED_50_EVAL
        result["comparison"] = compare(result["trir"], PUBLISHED_50_EVAL)
    write_metrics(output, result)
    if run.markdown_out:
        run.markdown_out.parent.mkdir(parents=True, exist_ok=True)
        run.markdown_out.write_text(markdown(result, f"TRIR on {data.name}", result.get("published")), encoding="utf-8")
    return result
