"""An anonymization job: the work behind ``textanon anonymize``, callable from Python.

* :class:`PipelineSettings` — which pipeline and how it is set up: the package (or folder), the profile and its
  index, the replacement style, the optimizer's operators and pseudonyms, the allow and deny lists;
  :func:`prepare_pipeline` loads it (:func:`load_pipeline`, the ``spacy.load`` overrides of :func:`run_overrides`)
  and attaches what the settings add (:func:`configure_pipeline`).
* :class:`AnonymizeSettings` — the pipeline settings and how the job runs: the default target, the engine (this
  machine or a Ray cluster), processes, batches, the longest record.
* :func:`anonymize_file` — the job: every record of an input file anonymized with the chosen engine into one
  output or error record each, in input order (``.jsonl`` or ``.parquet``), the masks and the side outputs
  (:class:`~textanon.run.side_outputs.SideOutputs`: review report, mapping) written beside.

Fail closed: everything that can be checked (the settings, the side outputs, the output files, the profile, the
index, the pipeline and what is attached to it) is checked before any document is read, and a problem raises
:class:`JobError`, which the command turns into its message and exit code; a record that fails becomes an error
record (``textanon.run.runner``).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Dict, Iterator, List, Optional, Tuple, Union

import spacy
from spacy import util as spacy_util
from spacy.language import Language

from textanon.io.datasets.records import read_records
from textanon.io.paths import overlap
from textanon.io.progress import bar, count_records
from textanon.pipes.allow_deny import add_lists
from textanon.pipes.generalizer import use_generalizer
from textanon.pipes.search_risk import use_index
from textanon.profiles import DEFAULT_PROFILE, GENERALIZE, SEARCH, ProfileError, supports_profiles
from textanon.profiles import profile as profile_overrides
from textanon.render.operators import OperatorError
from textanon.render.output import OutputError, ParquetOutput, write_output
from textanon.risk.language_models.loading import ModelNotAvailable
from textanon.risk.search.base import IndexUnavailable
from textanon.run.collector import settle
from textanon.run.runner import DEFAULT_MAX_CHARS, anonymize_records
from textanon.run.scale.ray_engine import PipelineSpec, anonymize_on_ray
from textanon.run.side_outputs import SideOutputs

DEFAULT_PIPELINE = "en_textanon"
#: records per Ray task when ``--batch-size`` is not given (the actors, not this process, hold the pipeline)
RAY_BATCH_SIZE = 8
#: the engines (``anonymize --engine``): this machine, or a Ray cluster (``textanon.run.scale.ray_engine``)
LOCAL, RAY = "local", "ray"


class JobError(Exception):
    """A job that cannot run, raised before any document is read (or an output that fails while it is written).
    ``message`` and ``hint`` (a further line, or None); ``usage``: the settings themselves are wrong (the command
    reports a usage error, exit code 2) rather than a file, model or index (exit code 1)."""

    def __init__(self, message: str, hint: Optional[str] = None, usage: bool = False):
        super().__init__(message)
        self.message, self.hint, self.usage = message, hint, usage


@dataclass(frozen=True)
class PipelineSettings:
    """Which pipeline a job runs and how it is set up (the options of ``anonymize`` of the same names).

    profile: a name of :mod:`textanon.profiles` (None: the default, or ``search`` with an ``index``); replacement:
    the optimizer's style (None: the pipeline's); operators: the optimizer's ``operators`` block
    (:func:`textanon.render.operators.operator_block`); pseudonym_key: the file holding the pseudonyms' secret."""

    model: str = DEFAULT_PIPELINE
    profile: Optional[str] = None
    index: Optional[Path] = None
    replacement: Optional[str] = None
    operators: Optional[dict] = None
    pseudonym_seed: Optional[int] = None
    pseudonym_key: Optional[Path] = None
    allow_list: Optional[Path] = None
    deny_list: Optional[Path] = None

    @property
    def generalize(self) -> bool:
        """Whether the generalizer is added (``replacement="generalize"``)."""
        return self.replacement == GENERALIZE

    def overrides(self) -> Tuple[dict, Optional[Path]]:
        """:func:`run_overrides` of these settings."""
        key = str(self.pseudonym_key) if self.pseudonym_key else None  # a path, not the key
        optimizer = {"pseudonym_seed": self.pseudonym_seed, "pseudonym_key": key, "operators": self.operators}
        return run_overrides(self.model, self.profile, self.index, self.replacement, **optimizer)


@dataclass(frozen=True)
class AnonymizeSettings:
    """The settings of an anonymization job: its pipeline, the person to protect in records without their own
    ``target``, the engine (:data:`LOCAL` with ``n_process`` worker processes, or :data:`RAY` at ``address``
    with ``num_workers`` actors), documents per batch, and the longest record (longer ones: error records)."""

    pipeline: PipelineSettings = PipelineSettings()
    target: Optional[str] = None
    engine: str = LOCAL
    address: Optional[str] = None
    num_workers: Optional[int] = None
    n_process: int = 1
    batch_size: Optional[int] = None  # None: the pipeline's nlp.batch_size (Ray: RAY_BATCH_SIZE)
    max_chars: int = DEFAULT_MAX_CHARS
    markup: Optional[str] = None  # "text" or "html" for every record (None: HTML for .html/.htm files)


@dataclass(frozen=True)
class JobResult:
    """What a job did: documents anonymized, error records, and the side outputs written (``{"report": path}``,
    ``{"mapping": path}``)."""

    n_ok: int
    n_errors: int
    written: Dict[str, str]


def pipeline_overrides(replacement: Optional[str] = None, **optimizer) -> dict:
    """The ``spacy.load`` config overrides of ``textanon_optimizer`` settings (those not None)."""
    settings = {k: v for k, v in dict(optimizer, replacement=replacement).items() if v is not None}
    operators = settings.pop("operators", None)
    overrides = {f"components.textanon_optimizer.{k}": v for k, v in settings.items()}
    if operators:
        overrides["components.textanon_optimizer.operators"] = operators
    return overrides


def run_overrides(
    model: str,
    profile: Optional[str],
    index: Optional[Path],
    replacement: Optional[str] = None,
    **optimizer,
) -> Tuple[dict, Optional[Path]]:
    """(the ``spacy.load`` overrides of a run: the profile's, then the optimizer settings given; the index left
    for :func:`textanon.pipes.search_risk.use_index` — a pipeline without profiles). An ``index`` is the search
    profile. Raises :class:`JobError`: a usage error for a profile the pipeline does not have, an unknown profile
    or one without its index; an error for an index that cannot be opened."""
    name = profile if profile is not None else (SEARCH if index is not None else None)
    if not supports_profiles(model):
        if profile is not None:
            raise JobError(
                f"--profile: the pipeline {model} has no profiles (it lacks the components they switch)", usage=True
            )
        return pipeline_overrides(replacement, **optimizer), index
    try:
        overrides = profile_overrides(name or DEFAULT_PROFILE, index, replacement)
    except ProfileError as err:
        raise JobError(str(err), usage=True) from err
    except IndexUnavailable as err:
        raise JobError(f"Cannot use the search index: {err}") from err
    return {**overrides, **pipeline_overrides(replacement, **optimizer)}, None


def load_pipeline(name: str, overrides: Optional[dict] = None) -> Language:
    """The packaged pipeline (or a pipeline folder) loaded with the ``spacy.load`` config ``overrides``
    (:func:`run_overrides`). Raises :class:`JobError` when it or a model it needs is missing (a usage error for
    a wrong operator)."""
    try:
        return spacy.load(name, config=overrides or {})
    except ModelNotAvailable as err:
        raise JobError(f"Cannot load pipeline {name!r}: {err}") from err
    except OperatorError as err:
        raise JobError(str(err), usage=True) from err
    except OSError as err:
        raise JobError(
            f"Cannot load pipeline {name!r}.", "Build and install it with `make package`, or pass --model PATH."
        ) from err


def configure_pipeline(
    nlp: Language,
    index: Optional[Union[str, Path]] = None,
    allow_list: Optional[Union[str, Path]] = None,
    deny_list: Optional[Union[str, Path]] = None,
    generalize: bool = False,
    on_note: Optional[Callable[[str], None]] = None,
) -> List[str]:
    """Attach to a loaded pipeline, in this order, the search index (:func:`~textanon.pipes.search_risk.use_index`),
    the generalizer (``generalize``) and the allow and deny lists; returns what was done (one line each, to show
    the user; each also given to ``on_note`` as it is done). Raises :class:`JobError` for any of them that cannot
    be used, before any document is read."""
    notes = []
    if index is not None:
        try:
            notes.append(use_index(nlp, index))
        except (IndexUnavailable, ValueError) as err:
            raise JobError(f"Cannot use the search index: {err}") from err
        if on_note is not None:
            on_note(notes[-1])
    if generalize:
        try:
            use_generalizer(nlp)
        except ValueError as err:
            raise JobError(f"Cannot generalize: {err}") from err
    if allow_list or deny_list:
        try:
            add_lists(nlp, allow_list, deny_list)
        except ValueError as err:
            raise JobError(f"Cannot use the allow/deny lists: {err}") from err
    return notes


def prepare_pipeline(
    settings: PipelineSettings, on_note: Optional[Callable[[str], None]] = None
) -> Tuple[Language, List[str]]:
    """The pipeline of ``settings``, loaded and configured: (the pipeline, :func:`configure_pipeline`'s notes,
    each also given to ``on_note``); raises :class:`JobError`."""
    overrides, index = settings.overrides()
    nlp = load_pipeline(settings.model, overrides)
    notes = configure_pipeline(nlp, index, settings.allow_list, settings.deny_list, settings.generalize, on_note)
    settle()  # the loaded objects out of the collector's way (textanon.run.collector)
    return nlp, notes


def open_output(path: Path) -> IO[str]:
    """An output file opened for writing, before any work (``.parquet``: an ``output.ParquetOutput``); raises
    :class:`JobError` if it cannot be written."""
    if path.is_dir():
        raise JobError(f"Output {path} is a directory; give a file path.")
    if not path.parent.is_dir():
        raise JobError(f"Output folder {path.parent} does not exist.")
    try:
        if path.suffix.lower() == ".parquet":
            return ParquetOutput(path)
        return path.open("w", encoding="utf-8")
    except ImportError as err:
        raise JobError(f"Writing {path.name} needs pyarrow: pip install pyarrow (or textanon[scale]).") from err
    except OSError as err:
        raise JobError(f"Cannot write output {path}: {err.strerror or type(err).__name__}.") from err


def report_folder(path: Path) -> Path:
    """``path`` created (readable by its owner only: the report's pages show original texts) for a review report;
    raises :class:`JobError`, before any work, if it cannot be created."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        raise JobError(f"Cannot create the report folder {path}: {err.strerror or type(err).__name__}.") from err
    return path


def open_side_outputs(
    target: Optional[str] = None,
    report_dir: Optional[Path] = None,
    mapping_out: Optional[Path] = None,
    mapping_in: Optional[Path] = None,
    key: Optional[str] = None,
    encrypted: bool = True,
) -> SideOutputs:
    """The :class:`~textanon.run.side_outputs.SideOutputs` of a job (report folder created, mapping key and
    earlier mapping checked, before any output is opened: :func:`report_folder`); raises :class:`JobError`."""
    if report_dir is not None:
        report_folder(Path(report_dir))
    try:
        return SideOutputs(target, report_dir, mapping_out, mapping_in, key, encrypted)
    except (ValueError, OSError) as err:
        raise JobError(f"Cannot write the side outputs: {err}") from err


def anonymize_file(
    settings: AnonymizeSettings,
    input_path: Path,
    output: Path,
    masks_out: Optional[Path] = None,
    sides: Optional[SideOutputs] = None,
    on_error: Optional[Callable[[dict], None]] = None,
    on_note: Optional[Callable[[str], None]] = None,
) -> JobResult:
    """Anonymize every record of ``input_path`` (``records.read_records``) with ``settings``: one output or error
    record per input record, in input order, to ``output`` (``.jsonl`` or ``.parquet``), the masks to
    ``masks_out``, and ``sides`` (:func:`open_side_outputs`) fed and written. ``on_error`` is called with each
    error record, ``on_note`` with what was attached to the pipeline (:func:`configure_pipeline`).

    Checked first, in this order, raising :class:`JobError`: what the Ray engine cannot do (a mapping, the
    generalizer), that no output is the input or another output (:func:`textanon.io.paths.overlap`), the output
    files, the profile, the pipeline and what is attached to it; an output that fails while it is written raises
    it too (the output is then incomplete)."""
    sides = sides if sides is not None else SideOutputs(settings.target)
    pipeline = settings.pipeline
    if settings.engine == RAY and sides.mapping is not None:
        raise JobError(
            "--mapping-out/--mapping-in need --engine local (the pseudonym table lives in one process)", usage=True
        )
    if settings.engine == RAY and pipeline.generalize:
        raise JobError("--replacement generalize needs --engine local", usage=True)
    problem = overlap([("input_path", input_path)], [("output", output), ("masks_out", masks_out)])
    if problem:  # checked before any output is opened: an input is never truncated
        raise JobError(problem, usage=True)
    out = open_output(output)
    masks_file = open_output(masks_out) if masks_out else None
    if settings.engine == RAY:
        records = _ray_records(settings, input_path, sides)
    else:
        records = _local_records(settings, input_path, sides, on_note)
    try:
        n_ok, n_err = write_output(
            bar(sides.records(records), total=count_records(input_path), desc="anonymize"),
            out,
            masks_file,
            on_error=on_error,
        )
    except OutputError as err:
        raise JobError(f"{err} ({err.error.filename or output}).", f"{output} is incomplete.") from err
    return JobResult(n_ok, n_err, sides.close())


def _local_records(
    settings: AnonymizeSettings, input_path: Path, sides: SideOutputs, on_note: Optional[Callable[[str], None]]
) -> Iterator[dict]:
    """The output records of the local engine (``runner.anonymize_records``)."""
    nlp, _ = prepare_pipeline(settings.pipeline, on_note)
    return anonymize_records(
        nlp,
        sides.inputs(read_records(input_path, markup=settings.markup)),
        target=settings.target,
        n_process=sides.prepare(nlp, settings.n_process),
        batch_size=settings.batch_size,
        max_chars=settings.max_chars,
    )


def _ray_records(settings: AnonymizeSettings, input_path: Path, sides: SideOutputs) -> Iterator[dict]:
    """The output records of the Ray engine (every actor loads the pipeline: :class:`PipelineSpec`)."""
    pipeline = settings.pipeline
    overrides, index = pipeline.overrides()
    if settings.address is None and not (spacy_util.is_package(pipeline.model) or Path(pipeline.model).is_dir()):
        load_pipeline(pipeline.model)  # raises the local engine's error
    paths = (str(p) if p else None for p in (index, pipeline.allow_list, pipeline.deny_list))
    return anonymize_on_ray(
        sides.inputs(read_records(input_path, markup=settings.markup)),
        PipelineSpec(pipeline.model, overrides, *paths),
        address=settings.address,
        target=settings.target,
        num_workers=settings.num_workers,
        batch_size=settings.batch_size or RAY_BATCH_SIZE,
        max_chars=settings.max_chars,
    )
