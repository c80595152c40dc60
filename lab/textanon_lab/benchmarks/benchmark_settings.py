"""Settings of the benchmark harness (:mod:`textanon_lab.benchmarks.harness`): how its rows are scored
(:class:`ScoreSettings`), which rows run (:class:`BenchmarkRows`) and which files it writes (:class:`BenchmarkOutputs`);
the row settings and the fluency corpus made of the ``lab benchmark`` command's options.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence, Tuple

from textanon_eval.trir.attack import TrirSettings
from textanon_lab.benchmarks.generalization import GeneralizeBench, generalize_bench
from textanon_lab.benchmarks.search_rows import SearchBench, search_bench


@dataclass(frozen=True)
class ScoreSettings:
    """How :func:`textanon_lab.benchmarks.harness.score` measures the rows: TRIR by one attack per seed of
    ``trir_seeds`` (``trir_settings``, default :class:`textanon_eval.trir.attack.TrirSettings`), none with
    ``skip_trir``; the headline TPI under ``headline_model`` (default word frequencies) and, with ``tpi_lm``, the TPI
    under ``tpi_model`` (default SmolLM2), information content cached in ``cache_dir`` (default shared with
    ``evaluate-tpi``); with ``readability``, the readability columns."""

    trir_settings: Optional[TrirSettings] = None
    trir_seeds: Sequence[int] = (42,)
    skip_trir: bool = False
    headline_model: Optional[str] = None
    tpi_model: Optional[str] = None
    tpi_lm: bool = True
    cache_dir: Optional[Path] = None
    readability: bool = True


@dataclass(frozen=True)
class BenchmarkRows:
    """The rows :func:`textanon_lab.benchmarks.harness.benchmark` runs: textanon (``model``, its risk threshold sweep
    ``thresholds``, mask-all of ``trained_model`` when given), Presidio (``include_presidio``), the LLM designs of
    ``llm_file``, the search-risk rows (``search``), the generalization rows (``generalize``); ``groups``: the row
    groups (:data:`textanon_lab.benchmarks.harness.GROUPS`; None: all)."""

    thresholds: Sequence[float]
    model: str = "en_textanon"
    trained_model: Optional[str] = None
    llm_file: Optional[Path] = None
    include_presidio: bool = True
    search: Optional[SearchBench] = None
    generalize: Optional[GeneralizeBench] = None
    groups: Optional[Sequence[str]] = None


@dataclass(frozen=True)
class BenchmarkOutputs:
    """Files the benchmark writes: ``output`` (the result, :func:`textanon_lab.benchmarks.harness.write_result`),
    ``texts_out`` (``{system: {name: anonymized text}}``) and ``generalizations_out`` (the generalized spans, the
    input of ``lab truth-audit sample``); None: not written."""

    output: Optional[Path] = None
    texts_out: Optional[Path] = None
    generalizations_out: Optional[Path] = None


#: :func:`textanon_lab.benchmarks.harness.score` by default: TRIR with seed 42, both TPIs, the readability columns
DEFAULT_SCORING = ScoreSettings()
#: a benchmark that writes no file
NO_OUTPUTS = BenchmarkOutputs()


def optional_benches(
    search_pipeline: Optional[str],
    index_specs: Sequence[str],
    sweep: bool,
    ablation: bool,
    generalize_specs: Sequence[str],
) -> Tuple[Optional[SearchBench], Optional[GeneralizeBench]]:
    """The search-risk rows (:func:`textanon_lab.benchmarks.search_rows.search_bench`, None without a pipeline and
    an index spec) and the generalization rows (:func:`textanon_lab.benchmarks.generalization.generalize_bench`,
    None without specs); ValueError for bad specs (search first)."""
    search = search_bench(search_pipeline, index_specs, sweep, ablation) if search_pipeline or index_specs else None
    return search, generalize_bench(generalize_specs) if generalize_specs else None


def existing_corpus(path: Optional[Path], warn: Callable[[str], None] = print) -> Optional[Path]:
    """The fluency corpus ``path``, or None (with a ``warn``ing) when it does not exist."""
    if path is not None and not path.exists():
        warn(f"--fluency-corpus {path} not found: no fluency column")
        return None
    return path
