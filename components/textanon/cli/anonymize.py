"""``anonymize`` and ``demo`` commands."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg, table

import textanon  # noqa: F401  (extensions)
from textanon.cli.apps import app
from textanon.cli.common import (
    Engine,
    Markup,
    Profile,
    Replacement,
    check_distinct,
    check_report_folder,
    fail_job,
    input_file,
    load_key,
    usage_error,
    value,
)
from textanon.io.datasets.records import Record
from textanon.render.mapping import KEY_ENV
from textanon.render.operators import OPERATORS, OperatorError, operator_block
from textanon.render.output import DECISION_HEADER, decision_rows, doc_to_record
from textanon.run.job import (
    DEFAULT_PIPELINE,
    AnonymizeSettings,
    JobError,
    PipelineSettings,
    anonymize_file,
    open_side_outputs,
    prepare_pipeline,
)
from textanon.run.runner import DEFAULT_MAX_CHARS, pipe_docs
from textanon.run.side_outputs import OwnerOnlyReport

UNENCRYPTED_WITH_KEY = (
    f"--mapping-unencrypted with a key (--key-file or ${KEY_ENV}): encrypt the mapping, or drop the key"
)
OPERATOR_HELP = (
    "How masked entities of LABEL are written: LABEL=NAME[:ARG=VALUE...], repeatable; LABEL 'default' for every "
    "other label. NAME: " + ", ".join(OPERATORS) + " (or a registered function's full name). Examples: "
    "PERSON=pseudonym, CODE=mask:chars_to_mask=12, ORG=replace:new_value=<ORG>, DEM=redact, "
    "LOC=hash:length=12 (keyed: --key-file), DATETIME=encrypt (reversed by deanonymize --key-file), "
    "LOC=generalize (where the profile generalizes: fast, search), "
    "MISC=keep (never for the protected person or a code). "
    "See the operator table in the README."
)


def operator_config(specs: List[str], key_file: Optional[Path] = None) -> Optional[dict]:
    """The optimizer's ``operators`` config block from ``--operator`` specs
    (:func:`textanon.render.operators.operator_block`);
    a usage error for a wrong name, argument or missing key, before the pipeline loads; None when none is given."""
    try:
        return operator_block(specs, key_file) or None
    except OperatorError as err:
        usage_error(str(err))


def warn_error(record: dict) -> None:
    """Show an error record's error (the record itself is in the output)."""
    msg.warn(record["error"])


def _checked_key(key_file: Optional[Path], mapping_unencrypted: bool) -> Optional[str]:
    """The key of ``--key-file`` (else the environment's); a key with ``--mapping-unencrypted`` is a usage error."""
    key = load_key(key_file)
    if mapping_unencrypted and key:
        usage_error(UNENCRYPTED_WITH_KEY)
    return key


@app.command("anonymize")
def anonymize(
    input_path: Path = typer.Argument(
        ...,
        exists=True,
        help=".txt, .html, .jsonl ({id, text, target?}), TAB-style .json, .parquet or a folder of .txt/.html files",
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
        "runs the generalizer; else ***). Default: the profile's (generalize for fast and search, suppression for lm "
        "and strict)",
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
    batch_size: Optional[int] = typer.Option(
        None,
        "--batch-size",
        min=1,
        help="Documents per batch sent to the pipeline (default: the pipeline's nlp.batch_size; Ray: 8)",
    ),
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
    markup: Optional[Markup] = typer.Option(
        None,
        "--markup",
        help="text, or html: the pipeline reads the text a browser shows and the output keeps every tag (default: "
        "html for .html/.htm files, else text)",
    ),
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
    key = _checked_key(key_file, mapping_unencrypted)
    pipeline = PipelineSettings(
        model=model,
        profile=value(profile),
        index=index,
        replacement=value(replacement),
        operators=operator_config(operator, key_file),
        pseudonym_seed=pseudonym_seed,
        pseudonym_key=pseudonym_key or key_file,
        allow_list=allow_list,
        deny_list=deny_list,
    )
    run = (engine.value, address, num_workers, n_process, batch_size, max_chars, value(markup))
    settings = AnonymizeSettings(pipeline, target, *run)
    try:
        sides = open_side_outputs(target, html, mapping_out, mapping_in, key, not mapping_unencrypted)
        result = anonymize_file(settings, input_path, output, masks_out, sides, warn_error, msg.info)
    except JobError as err:
        fail_job(err)
    msg.good(f"{result.n_ok} documents anonymized, {result.n_errors} error records -> {output}")
    for what, path in result.written.items():
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
    try:
        nlp, _ = prepare_pipeline(PipelineSettings(model, operators=operator_config(operator, key_file)))
    except JobError as err:
        fail_job(err)
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
