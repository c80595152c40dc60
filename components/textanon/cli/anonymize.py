"""``anonymize`` and ``demo`` commands."""

from pathlib import Path
from typing import IO, List, Optional, Tuple

import spacy
import typer
from spacy import util as spacy_util
from wasabi import msg, table

import textanon  # noqa: F401  (extensions)
from textanon.cli.apps import app
from textanon.cli.common import (
    Engine,
    Profile,
    Replacement,
    check_distinct,
    check_report_folder,
    input_file,
    load_key,
    usage_error,
)
from textanon.io.datasets.records import Record, read_records
from textanon.io.progress import bar, count_records
from textanon.pipes.allow_deny import add_lists
from textanon.pipes.generalizer import use_generalizer
from textanon.pipes.search_risk import use_index
from textanon.profiles import DEFAULT_PROFILE, SEARCH, ProfileError, supports_profiles
from textanon.profiles import profile as profile_overrides
from textanon.render.mapping import KEY_ENV
from textanon.render.operators import OPERATORS, OperatorError, operator_block
from textanon.render.output import (
    DECISION_HEADER,
    OutputError,
    ParquetOutput,
    decision_rows,
    doc_to_record,
    write_output,
)
from textanon.risk.language_models.loading import ModelNotAvailable
from textanon.risk.search.base import IndexUnavailable
from textanon.run.runner import DEFAULT_MAX_CHARS, anonymize_records, pipe_docs
from textanon.run.scale.ray_engine import PipelineSpec, anonymize_on_ray
from textanon.run.side_outputs import OwnerOnlyReport, SideOutputs

DEFAULT_PIPELINE = "en_textanon"
OPERATOR_HELP = (
    "How masked entities of LABEL are written: LABEL=NAME[:ARG=VALUE...], repeatable; LABEL 'default' for every "
    "other label. NAME: " + ", ".join(OPERATORS) + " (or a registered function's full name). Examples: "
    "PERSON=pseudonym, CODE=mask:chars_to_mask=12, ORG=replace:new_value=<ORG>, DEM=redact, "
    "LOC=hash:length=12 (keyed: --key-file), DATETIME=encrypt (reversed by deanonymize --key-file), "
    "LOC=generalize (with --replacement generalize), MISC=keep (never for the protected person or a code). "
    "See the operator table in the README."
)


def load_pipeline(name: str, overrides: Optional[dict] = None):
    """Load the packaged pipeline (or a pipeline folder) with the ``spacy.load`` config ``overrides``
    (:func:`run_overrides`), with a clear message if it or a model is missing."""

    try:
        return spacy.load(name, config=overrides or {})
    except ModelNotAvailable as err:
        msg.fail(f"Cannot load pipeline {name!r}: {err}", exits=1)
    except OperatorError as err:
        usage_error(str(err))
    except OSError:
        msg.fail(
            f"Cannot load pipeline {name!r}.",
            "Build and install it with `make package`, or pass --model PATH.",
            exits=1,
        )


def pipeline_overrides(replacement: Optional[str] = None, **optimizer) -> dict:
    """The ``spacy.load`` config overrides of ``textanon_optimizer`` settings (those not None)."""
    settings = {k: v for k, v in dict(optimizer, replacement=replacement).items() if v is not None}
    operators = settings.pop("operators", None)
    overrides = {f"components.textanon_optimizer.{k}": v for k, v in settings.items()}
    if operators:
        overrides["components.textanon_optimizer.operators"] = operators
    return overrides


def run_overrides(
    model: str, profile: Optional[Profile], index: Optional[Path], replacement: Optional[str] = None, **optimizer
) -> Tuple[dict, Optional[Path]]:
    """(the ``spacy.load`` overrides of a run: the profile's, then the optimizer settings given; the index left
    for :func:`textanon.pipes.search_risk.use_index` — a pipeline without profiles). ``--index`` is the search
    profile; a usage error for a profile the pipeline does not have or an index that cannot be opened."""
    name = profile.value if profile is not None else (SEARCH if index is not None else None)
    if not supports_profiles(model):
        if profile is not None:
            usage_error(f"--profile: the pipeline {model} has no profiles (it lacks the components they switch)")
        return pipeline_overrides(replacement, **optimizer), index
    try:
        overrides = profile_overrides(name or DEFAULT_PROFILE, index)
    except ProfileError as err:
        usage_error(str(err))
    except IndexUnavailable as err:
        msg.fail(f"Cannot use the search index: {err}", exits=1)
    return {**overrides, **pipeline_overrides(replacement, **optimizer)}, None


def operator_config(specs: List[str], key_file: Optional[Path] = None) -> Optional[dict]:
    """The optimizer's ``operators`` config block from ``--operator`` specs
    (:func:`textanon.render.operators.operator_block`);
    a usage error for a wrong name, argument or missing key, before the pipeline loads; None when none is given."""
    try:
        return operator_block(specs, key_file) or None
    except OperatorError as err:
        usage_error(str(err))


def attach(nlp, index: Optional[Path], allow_list: Optional[Path], deny_list: Optional[Path], generalize: bool):
    """What the options add to a loaded pipeline: the search index, the generalizer (``--replacement generalize``),
    the allow and deny lists; a problem with any of them is an error (exit 1) before any document is read."""
    if index is not None:
        try:
            msg.info(use_index(nlp, index))
        except (IndexUnavailable, ValueError) as err:
            msg.fail(f"Cannot use the search index: {err}", exits=1)
    if generalize:
        try:
            use_generalizer(nlp)
        except ValueError as err:
            msg.fail(f"Cannot generalize: {err}", exits=1)
    if allow_list or deny_list:
        try:
            add_lists(nlp, allow_list, deny_list)
        except ValueError as err:
            msg.fail(f"Cannot use the allow/deny lists: {err}", exits=1)


def open_output(path: Path) -> IO[str]:
    """Open an output file for writing, before any work: a clear error and exit 1 if it cannot be written
    (``.parquet``: an ``output.ParquetOutput``)."""
    if path.is_dir():
        msg.fail(f"Output {path} is a directory; give a file path.", exits=1)
    if not path.parent.is_dir():
        msg.fail(f"Output folder {path.parent} does not exist.", exits=1)
    try:
        if path.suffix.lower() == ".parquet":
            return ParquetOutput(path)
        return path.open("w", encoding="utf-8")
    except ImportError:
        msg.fail(f"Writing {path.name} needs pyarrow: pip install pyarrow (or textanon[scale]).", exits=1)
    except OSError as err:
        msg.fail(f"Cannot write output {path}: {err.strerror or type(err).__name__}.", exits=1)


@app.command("anonymize")
def anonymize(
    input_path: Path = typer.Argument(
        ..., exists=True, help=".txt, .jsonl ({id, text, target?}), TAB-style .json, .parquet or a folder of .txt"
    ),
    output: Path = typer.Option(
        ...,
        "--output",
        "-o",
        help="Output JSONL (or .parquet): one record (or error record) per input record, in input order",
    ),
    masks_out: Optional[Path] = typer.Option(
        None, "--masks-out", help="Also write the masks as JSON: {doc_id: [[start, end, replacement], ...]}"
    ),
    model: str = typer.Option(DEFAULT_PIPELINE, "--model", "-m", help="Pipeline package name or folder"),
    target: Optional[str] = typer.Option(None, "--target", help="Person to protect (for records without 'target')"),
    profile: Optional[Profile] = typer.Option(
        None,
        "--profile",
        help="The privacy/speed trade-off (README 'Profiles'): fast (default: word-frequency prior, no language "
        "model), lm (language-model risk; for a GPU), search (a public-knowledge index: needs --index), strict (every "
        "detected span masked, as NER redaction; no risk scoring)",
    ),
    replacement: Optional[Replacement] = typer.Option(
        None,
        "--replacement",
        help="How every masked entity is written: *** (suppression), [PERSON] (label), [PERSON_1] (numbered), a "
        "realistic surrogate (pseudonym), or a true, less specific phrase where the risk allows it (generalize: "
        "adds the generalizer; else ***). Default: the pipeline's (suppression)",
    ),
    operator: List[str] = typer.Option([], "--operator", help=OPERATOR_HELP, metavar="LABEL=NAME[:ARG=VALUE...]"),
    pseudonym_seed: Optional[int] = typer.Option(
        None,
        "--pseudonym-seed",
        help="Public variant of the pseudonyms, mixed with their key (another seed, other surrogates under the same "
        "key); never a secret: without the key it reproduces nothing",
    ),
    pseudonym_key: Optional[Path] = typer.Option(
        None,
        "--pseudonym-key",
        help=f"File holding the secret of the pseudonyms and date shifts (default: the --key-file, else ${KEY_ENV}, "
        "else a random one: the surrogates then cannot be reproduced)",
        exists=True,
        dir_okay=False,
    ),
    n_process: int = typer.Option(1, "--n-process", help="Worker processes"),
    batch_size: int = typer.Option(8, "--batch-size", help="Documents per batch sent to the pipeline"),
    engine: Engine = typer.Option(
        Engine.local, "--engine", help="local (this machine) or ray (Ray Data; docs/scale.md)"
    ),
    address: Optional[str] = typer.Option(
        None, "--address", help="Ray cluster to use (e.g. auto, ray://head:10001); default: start a local Ray"
    ),
    num_workers: Optional[int] = typer.Option(
        None, "--num-workers", help="Ray actors, each holding the pipeline (default: the cluster's CPUs)"
    ),
    max_chars: int = typer.Option(DEFAULT_MAX_CHARS, "--max-chars", help="Longer records become error records"),
    index: Optional[Path] = typer.Option(
        None,
        "--index",
        help="Search index folder (`index build`): the search profile (--profile search); see docs/search.md",
    ),
    html: Optional[Path] = typer.Option(None, "--html", help="Also write the HTML review report to this folder"),
    allow_list: Optional[Path] = typer.Option(None, "--allow-list", help="Terms never masked (.txt or .jsonl)"),
    deny_list: Optional[Path] = typer.Option(None, "--deny-list", help="Terms always masked (.txt or .jsonl)"),
    mapping_out: Optional[Path] = typer.Option(
        None, "--mapping-out", help="Write the reversible mapping original <-> replacement (encrypted with the key)"
    ),
    mapping_in: Optional[Path] = typer.Option(
        None, "--mapping-in", help="An earlier mapping to carry over (its pseudonyms stay the same)"
    ),
    key_file: Optional[Path] = typer.Option(
        None,
        "--key-file",
        help=f"File holding the key of the mapping and of the hash and encrypt operators (default: ${KEY_ENV})",
        exists=True,
        dir_okay=False,
    ),
    mapping_unencrypted: bool = typer.Option(
        False,
        "--mapping-unencrypted",
        help="Write (and read --mapping-in) the mapping WITHOUT encryption (it holds the original identifiers; "
        "refused with a key)",
    ),
) -> None:
    """Anonymize every record of INPUT_PATH; write one output or error record per input record to --output."""
    check_distinct(
        [("INPUT_PATH", input_path), ("--mapping-in", mapping_in), ("--allow-list", allow_list)]
        + [("--deny-list", deny_list), ("--key-file", key_file), ("--pseudonym-key", pseudonym_key)]
        + [("--index", index)],
        [("--output", output), ("--masks-out", masks_out), ("--mapping-out", mapping_out), ("--html", html)],
        folders=["--html"],
    )
    key = load_key(key_file)
    if mapping_unencrypted and key:
        usage_error(
            f"--mapping-unencrypted with a key (--key-file or ${KEY_ENV}): encrypt the mapping, or drop the key"
        )
    operators = operator_config(operator, key_file)
    replacement = replacement.value if replacement is not None else None
    try:  # report folder, mapping key and earlier mapping checked before any output is opened
        sides = SideOutputs(
            target, html and check_report_folder(html), mapping_out, mapping_in, key, not mapping_unencrypted
        )
    except (ValueError, OSError) as err:
        msg.fail(f"Cannot write the side outputs: {err}", exits=1)
    if engine is Engine.ray and sides.mapping is not None:
        usage_error("--mapping-out/--mapping-in need --engine local (the pseudonym table lives in one process)")
    if engine is Engine.ray and replacement == Replacement.generalize.value:
        usage_error("--replacement generalize needs --engine local")
    out = open_output(output)
    masks_file = open_output(masks_out) if masks_out else None
    overrides, index = run_overrides(
        model,
        profile,
        index,
        replacement,
        pseudonym_seed=pseudonym_seed,
        pseudonym_key=str(pseudonym_key or key_file) if (pseudonym_key or key_file) else None,  # a path, not the key
        operators=operators,
    )
    if engine is Engine.ray:
        if address is None and not (spacy_util.is_package(model) or Path(model).is_dir()):
            load_pipeline(model)  # exits with the local engine's message
        spec = PipelineSpec(
            model,
            overrides,
            *(str(p) if p else None for p in (index, allow_list, deny_list)),
        )
        records = anonymize_on_ray(
            sides.inputs(read_records(input_path)),
            spec,
            address=address,
            target=target,
            num_workers=num_workers,
            batch_size=batch_size,
            max_chars=max_chars,
        )
    else:
        if index is not None:
            pass
        nlp = load_pipeline(model, overrides)
        attach(nlp, index, allow_list, deny_list, replacement == Replacement.generalize.value)
        n_process = sides.prepare(nlp, n_process)
        records = anonymize_records(
            nlp,
            sides.inputs(read_records(input_path)),
            target=target,
            n_process=n_process,
            batch_size=batch_size,
            max_chars=max_chars,
        )
    try:
        n_ok, n_err = write_output(
            bar(sides.records(records), total=count_records(input_path), desc="anonymize"),
            out,
            masks_file,
            on_error=lambda r: msg.warn(r["error"]),
        )
    except OutputError as err:
        msg.fail(f"{err} ({err.error.filename or output}).", f"{output} is incomplete.", exits=1)
    msg.good(f"{n_ok} documents anonymized, {n_err} error records -> {output}")
    for what, path in sides.close().items():
        msg.good(f"{what} -> {path}")


@app.command("demo")
def demo(
    input_path: Path = input_file("A .txt document"),
    model: str = typer.Option(DEFAULT_PIPELINE, "--model", "-m", help="Pipeline package name or folder"),
    target: Optional[str] = typer.Option(None, "--target", help="Person to protect (their name)"),
    html: Optional[Path] = typer.Option(None, "--html", help="Also write the HTML review report to this folder"),
    operator: List[str] = typer.Option([], "--operator", help=OPERATOR_HELP, metavar="LABEL=NAME[:ARG=VALUE...]"),
    key_file: Optional[Path] = typer.Option(
        None, "--key-file", exists=True, dir_okay=False, help=f"Key of the hash and encrypt operators (${KEY_ENV})"
    ),
) -> None:
    """Anonymize one text file and print the masked text with a table of decisions."""

    check_distinct([("INPUT_PATH", input_path), ("--key-file", key_file)], [("--html", html)], folders=["--html"])
    load_key(key_file)
    overrides, _ = run_overrides(model, None, None, operators=operator_config(operator, key_file))
    nlp = load_pipeline(model, overrides)
    record = Record(id=input_path.stem, text=input_path.read_text(encoding="utf-8"), target=target)
    doc = next(pipe_docs(nlp, [record]))
    msg.divider("Anonymized text")
    print(doc._.anonymized_text)
    msg.divider("Decisions")
    rows = decision_rows(doc)
    print(table(rows, header=DECISION_HEADER, divider=True))
    masked = sum(1 for row in rows if row[-1] == "masked")
    msg.info(f"{masked}/{len(rows)} mentions masked; {len(doc._.risky_combinations or [])} risky combinations")
    for warning in doc._.anonymization_warnings or []:
        msg.warn(warning)
    if html:
        writer = OwnerOnlyReport(check_report_folder(html))
        writer.add(doc_to_record(doc, input_path.stem), doc.text, target)
        msg.good(f"Review report -> {writer.close()} (open it in a browser)")
