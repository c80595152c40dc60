"""Benchmark harness: textanon variants, Presidio, spaCy NER, LLM designs and the published columns of a
WikiActors-format file, each scored for privacy (TRIR), utility (TPI), agreement with the manual
anonymization (token precision/recall after alignment), masked share, speed and memory.

Masks of every system are character spans of ``original_abstract``. Systems we run are turned into
text for the attack by replacing masked spans with ``***``; published and LLM columns are used as given.

Equal knowledge: textanon is given the protected person's name; so that no system is favoured by
knowing it, every system run here (textanon variants, Presidio, spaCy NER, mask-all, the LLM designs)
gets the name's mentions (:func:`textanon.detect.target.find_target_mentions`) masked everywhere, recorded per
row (``target_known``, and ``target_chars_added``: characters of name mentions the system itself had left
visible). The published columns are fixed texts from the dataset and are scored as published.

Utility: the headline TPI uses word-frequency information content (``wordfreq``, independent of the
anonymizer); ``tpi_lm`` beside it uses the language model textanon's optimizer minimizes (SmolLM2 by
default), which favours textanon by construction. TRIR is the mean ± sample sd over the attack seeds
(one attack trained per seed, predictions for every system).
"""

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from textanon.detect.target import find_target_mentions
from textanon.io.datasets.alignment import masked_spans
from textanon.io.datasets.wikiactors import SUFFIX, WikiActor, evaluated, read_wikiactors
from textanon.render.masking import SUPPRESSION, apply_offsets, merge, merge_offsets
from textanon.risk.language_models.loading import cache_dir as base_cache
from textanon_eval.corpus import placeholder_tags, split_glued_tags
from textanon_eval.provenance import write_metrics
from textanon_eval.readability import REFERENCE_MODEL, Readability
from textanon_eval.scoring import format_mean_sd, mean_sd, prf, token_flags
from textanon_eval.tpi import HEADLINE_MODEL, InformationContent, tpi_corpus
from textanon_eval.trir.attack import TrirSettings, run_trir
from textanon_eval.trir.data import TrirInputs
from textanon_lab.benchmarks.benchmark_settings import (
    DEFAULT_SCORING,
    NO_OUTPUTS,
    BenchmarkOutputs,
    BenchmarkRows,
    ScoreSettings,
)
from textanon_lab.benchmarks.generalization import generalize_systems, replaced_text
from textanon_lab.benchmarks.generalization import markdown as generalization_markdown
from textanon_lab.benchmarks.judges import JudgeMismatch, add_judge_columns, carried_rows, note
from textanon_lab.benchmarks.judges import plot as plot_judges
from textanon_lab.benchmarks.search_rows import markdown as search_markdown
from textanon_lab.benchmarks.search_rows import search_systems
from textanon_lab.benchmarks.systems import run_isolated
from textanon_lab.benchmarks.truth_audit import write_generalizations


class BenchmarkError(ValueError):
    """Settings the benchmark cannot run with (the message says which)."""


#: row groups of the benchmark: Presidio, spaCy NER, mask-all and the LM-risk sweep; the search-risk rows; the
#: generalization rows with their twins; the published columns and LLM designs
GROUPS = ("baselines", "search", "generalization", "published")
PUBLISHED = ["ner3", "ner4", "ner7", "presidio", "spacy", "word2vec_t=0.5", "word2vec_t=0.25", "manual"]
MANUAL = "manual_abstract"  # the reference anonymization of precision / recall


def load_records(path: Path, limit: Optional[int] = None) -> List[WikiActor]:
    """The WikiActors records with an original abstract (the first ``limit``)."""
    records = evaluated(read_wikiactors(path))
    return records[:limit] if limit else records


def run_systems(
    records: List[WikiActor],
    thresholds: Sequence[float],
    model: str,
    trained_model: Optional[str],
    include_presidio: bool = True,
) -> Dict[str, dict]:
    """``{system: {"masks": {id: spans}, "seconds", "peak_rss_mb", "texts"?}}`` for systems run here."""
    docs = [(r.name, r.original, r.name) for r in records]
    runs: Dict[str, dict] = {}
    plan = [("spacy_ner", "spacy_ner", {}), ("textanon_mask_all", "textanon_mask_all", {"model": model})]
    if include_presidio:
        plan.insert(0, ("presidio (run here)", "presidio", {}))
    if trained_model:
        plan.append(("textanon_trained_mask_all", "textanon_mask_all", {"model": trained_model}))
    for label, name, kwargs in plan:
        runs[label] = _checked(label, run_isolated(name, docs, **kwargs))
    risk = _checked("textanon_risk", run_isolated("textanon_risk", docs, model=model, thresholds=thresholds))
    masks = risk.pop("masks")
    runs[f"textanon (default t={masks['threshold']:g})"] = dict(risk, masks=masks["default"])
    for t, m in masks["sweep"].items():
        runs[f"textanon t={t:g}"] = {"masks": m, "seconds": None, "peak_rss_mb": None, "sweep_threshold": t}
    return runs


def give_target_knowledge(records: List[WikiActor], systems: Dict[str, dict]) -> None:
    """Mask the protected person's name everywhere for every system run here (in place): mask systems get
    the name's mentions in the original added to their masks; text systems (LLM designs) get them replaced
    by ``***`` in their own output. Published columns (``published`` set) are left as published."""
    originals = {r.name: r.original for r in records}
    for s in systems.values():
        if s.get("published"):
            s["target_known"] = "as published"
            continue
        added = 0
        if "masks" in s:
            added = mask_mentions(s, {name: find_target_mentions(originals[name], name) for name in s["masks"]})
        else:
            for name, text in s["texts"].items():
                mentions = find_target_mentions(text, name)
                added += sum(e - b for b, e in mentions)
                s["texts"][name] = apply_offsets(text, mentions, SUPPRESSION)
        s["target_known"], s["target_chars_added"] = True, added


def mask_mentions(system: dict, mentions: Dict[str, list]) -> int:
    """Add ``mentions`` (document id -> character spans of the original) to a mask system's masks, in place, and
    return the characters that were not masked before; generalizing systems get them suppressed in their
    replacements; rendered texts are dropped (re-rendered from the masks)."""
    added = 0
    for doc_id, spans in system["masks"].items():
        found = mentions.get(doc_id, [])
        before = covered_chars(spans)
        system["masks"][doc_id] = merge_offsets(list(spans) + list(found))
        added += covered_chars(system["masks"][doc_id]) - before
        if doc_id in system.get("replacements", {}):  # generalizations: the mentions suppressed
            system["replacements"][doc_id] = [
                list(m) for m in merge(list(system["replacements"][doc_id]) + [(b, e, SUPPRESSION) for b, e in found])
            ]
    system.pop("texts", None)
    return added


def covered_chars(spans) -> int:
    """Characters covered by (possibly overlapping) spans."""
    return sum(e - b for b, e in merge_offsets(spans))


def _checked(label: str, result: dict) -> dict:
    if "error" in result:
        raise RuntimeError(f"system {label} failed: {result['error']}")
    return result


def text_columns(records: List[WikiActor], llm_file: Optional[Path]) -> Dict[str, dict]:
    """Published columns and LLM designs: ``{system: {"texts": {id: text}}}`` (empty ones skipped;
    placeholder tags glued to neighbouring words are split first, as in ``evaluate-tpi``)."""
    out: Dict[str, dict] = {}
    originals = [r.original for r in records]
    for col in PUBLISHED:
        texts = {r.name: r.abstracts[f"{col}{SUFFIX}"] for r in records if r.abstracts.get(f"{col}{SUFFIX}")}
        tags = placeholder_tags(list(texts.values()), originals)  # repair tags glued to words ("SSENSITIVEin")
        texts = {n: split_glued_tags(t, tags)[0] for n, t in texts.items()}
        if texts:
            out[f"{col} (published)"] = {"texts": texts, "seconds": None, "peak_rss_mb": None, "published": True}
    if llm_file and Path(llm_file).exists():
        for design, by_name in json.loads(Path(llm_file).read_text(encoding="utf8")).items():
            texts = {n: t for n, t in by_name.items() if isinstance(t, str)}
            if texts:
                out[f"llm {design} (SmolLM2)"] = {"texts": texts, "seconds": None, "peak_rss_mb": None}
    return out


def score(
    records: List[WikiActor],
    systems: Dict[str, dict],
    settings: ScoreSettings = DEFAULT_SCORING,
    trir_values: Optional[Dict[str, object]] = None,
    fluency_corpus: Optional[Sequence[str]] = None,
) -> List[dict]:
    """One row per system with every metric (TRIR/TPI from the evaluators), measured as ``settings`` say
    (:class:`textanon_lab.benchmarks.benchmark_settings.ScoreSettings`). ``trir_values`` (system -> % or list of %
    per seed) replaces running the attack here, e.g. ``evaluate-trir`` on the exported texts. ``tpi``: headline TPI
    (``headline_model``, default word frequencies); ``tpi_lm``: TPI with ``tpi_model`` (default SmolLM2), skipped
    when ``tpi_lm`` is False. ``readability``: the columns ``fragment_rate``, ``adjacent_placeholders`` and
    ``fluency_ratio`` (:mod:`textanon_eval.readability`; the fluency model is trained on ``fluency_corpus``, None:
    no fluency column)."""
    cache_dir, tpi_model, skip_trir = settings.cache_dir, settings.tpi_model, settings.skip_trir
    originals = {r.name: r.original for r in records}
    gold = {
        r.name: token_flags(r.original, masked_spans(r.original, r.abstracts[MANUAL]))
        for r in records
        if r.abstracts.get(MANUAL)
    }
    for sysname, s in systems.items():
        if "masks" not in s:
            s["masks"] = {n: masked_spans(originals[n], t) for n, t in s["texts"].items() if n in originals}
        if "texts" not in s and "replacements" in s:  # generalizations: the text with their replacements
            s["texts"] = {n: replaced_text(originals[n], m) for n, m in s["replacements"].items()}
        if "texts" not in s:
            s["texts"] = {n: apply_offsets(originals[n], m, SUPPRESSION) for n, m in s["masks"].items()}
    if cache_dir is None:
        cache_dir = base_cache() / "ic"  # shared with evaluate-tpi: the originals are scored once
    all_masks = {k: v["masks"] for k, v in systems.items()}
    general = {k: v["replacements"] for k, v in systems.items() if "replacements" in v}
    tpi = tpi_corpus(
        InformationContent(settings.headline_model or HEADLINE_MODEL, cache_dir=cache_dir),
        originals,
        all_masks,
        progress=True,
        generalizations=general,
    ).mean()
    lm = (
        tpi_corpus(
            InformationContent(tpi_model, cache_dir=cache_dir), originals, all_masks, generalizations=general
        ).mean()
        if settings.tpi_lm
        else {}
    )
    if trir_values is None:
        trir_values = {} if skip_trir else run_attack(records, systems, settings.trir_settings, settings.trir_seeds)
    trir = aggregate_trir(trir_values)
    reading = None
    if settings.readability:
        reading = Readability(originals, fluency_corpus)
    rows = []
    for name, s in systems.items():
        ids = [n for n in s["masks"] if n in gold]
        flags = [token_flags(originals[n], s["masks"][n]) for n in ids]
        quality = prf(flags, [gold[n] for n in ids]) if ids else {}
        n_docs = len(s["masks"])
        t = trir.get(name, {})
        rows.append(
            {
                "system": name,
                "trir": t.get("mean"),
                "trir_sd": t.get("sd"),
                "trir_seeds": t.get("n", 0),
                "tpi": round(float(tpi[name]), 4),
                "tpi_lm": round(float(lm[name]), 4) if name in lm else None,
                "target_known": s.get("target_known", False),
                "target_chars_added": s.get("target_chars_added"),
                "precision": quality.get("precision"),
                "recall": quality.get("recall"),
                "masked_share": quality.get("masked_share", _masked_share(originals, s["masks"])),
                "docs_per_s": round(n_docs / s["seconds"], 3) if s.get("seconds") else None,
                "load_s": round(s["load_s"], 1) if s.get("load_s") else None,
                "peak_rss_mb": round(s["peak_rss_mb"], 1) if s.get("peak_rss_mb") else None,
                "sweep_threshold": s.get("sweep_threshold"),
            }
        )
        if reading is not None:  # generalizations: their replacements are words, not placeholders
            rows[-1].update(reading.row(s.get("replacements") or s["masks"]))
        if "replacements" in s:
            rows[-1]["suppress_twin"] = s.get("suppress_twin")
            rows[-1]["generalized_share"] = generalized_share(s["replacements"])
    return rows


def fluency_texts(path: Path, records: Sequence[WikiActor]) -> List[str]:
    """The public bodies (``public_knowledge``) of the WikiActors file ``path`` of the people NOT among ``records``
    (the evaluated ones): the training corpus of the readability columns' fluency model."""
    evaluated_names = {r.name for r in records}
    return [r.background for r in read_wikiactors(path) if r.background and r.name not in evaluated_names]


def readability_settings(path: Optional[Path], texts: Optional[List[str]]) -> dict:
    """What a result records about its readability columns (:mod:`textanon_eval.readability`)."""
    return {
        "fragment_rate": f"masks leaving part of a name / title / date of the original visible, over masks; units "
        f"from a {REFERENCE_MODEL} parse of the original (entities, proper-noun runs, quoted titles, year ranges)",
        "adjacent_placeholders": "placeholders with only whitespace / punctuation between them and another one, "
        "over placeholders",
        "fluency_ratio": (
            "mean over documents of perplexity(anonymized, placeholders read as their reference entity's label "
            "noun) / perplexity(original), interpolated Kneser-Ney word trigram model trained on the public bodies "
            f"of {len(texts)} people not evaluated ({path}); no profile uses it"
            if texts
            else "not computed (no --fluency-corpus)"
        ),
    }


def _masked_share(originals: Dict[str, str], masks: Dict[str, list]) -> Optional[float]:
    """Share of the tokens masked over documents without a manual anonymization (a development set)."""
    flags = [token_flags(originals[n], m) for n, m in masks.items() if n in originals]
    n_tokens = sum(len(f) for f in flags)
    return round(sum(int(f.sum()) for f in flags) / n_tokens, 4) if n_tokens else None


def generalized_share(replacements: Dict[str, List[list]]) -> Optional[float]:
    """Share of the masked characters whose replacement is a generalization (not the suppression string)."""
    masked = general = 0
    for masks in replacements.values():
        for start, end, rep in merge(masks):
            masked += end - start
            general += (end - start) if rep not in (None, SUPPRESSION) else 0
    return round(general / masked, 4) if masked else None


def aggregate_trir(values: Dict[str, object]) -> Dict[str, dict]:
    """``{system: % or [% per seed]}`` -> ``{system: {"mean", "sd", "n"}}`` (sample sd; None for one seed)."""
    return {k: mean_sd(v if isinstance(v, (list, tuple)) else [v]) for k, v in values.items()}


def fill_trir(rows: List[dict], values: Dict[str, object]) -> None:
    """Set ``trir`` / ``trir_sd`` / ``trir_seeds`` of each row from ``{system: % or [% per seed]}`` (in place)."""
    agg = aggregate_trir(values)
    for row in rows:
        t = agg.get(row["system"], {})
        row["trir"], row["trir_sd"], row["trir_seeds"] = t.get("mean"), t.get("sd"), t.get("n", 0)


def run_attack(
    records: List[WikiActor], systems: Dict[str, dict], settings=None, seeds: Sequence[int] = (42,)
) -> Dict[str, List[float]]:
    """TRIR (%) of every system for every seed: one attack trained per seed on the file's background
    knowledge (cached per seed), predictions for all systems. ``{system: [TRIR per seed]}``."""

    background = {r.name: r.background for r in records if r.background}
    dev = {r.name: r.dev for r in records if r.dev}
    anonymized = {name: dict(s["texts"]) for name, s in systems.items()}
    anonymized["original"] = {r.name: r.original for r in records}
    out: Dict[str, List[float]] = {}
    for seed in seeds:
        result = run_trir(TrirInputs(background, anonymized, dev), replace(settings or TrirSettings(), seed=int(seed)))
        for name, value in result["trir"].items():
            out.setdefault(name, []).append(value)
    return out


def throughput_ratio(rows: List[dict], presidio_name: str = "presidio (run here)") -> Dict[str, Optional[float]]:
    """docs/s of each timed textanon row divided by Presidio's in the same run (None without a Presidio row)."""
    by = {r["system"]: r for r in rows}
    base = by.get(presidio_name, {}).get("docs_per_s")
    timed = [r for r in rows if r["system"].startswith("textanon") and r["docs_per_s"]]
    default = next((r for r in timed if r["system"].startswith("textanon (default")), None)
    fastest = max(timed, key=lambda r: r["docs_per_s"], default=None)
    ratio = lambda r: round(r["docs_per_s"] / base, 3) if (r and base) else None  # noqa: E731
    return {
        "default_pipeline": ratio(default),
        "fastest_variant": ratio(fastest),
        "fastest_variant_name": fastest["system"] if fastest else None,
    }


def benchmark(
    data: Path,
    rows: BenchmarkRows,
    scoring: ScoreSettings = DEFAULT_SCORING,
    outputs: BenchmarkOutputs = NO_OUTPUTS,
    trir_values: Optional[Dict[str, object]] = None,
    fluency_corpus: Optional[Path] = None,
    judges: bool = True,
    limit: Optional[int] = None,
    warn: Callable[[str], None] = print,
) -> dict:
    """Run the ``rows`` (:class:`textanon_lab.benchmarks.benchmark_settings.BenchmarkRows`) on the first ``limit``
    records of ``data`` and :func:`score` them as ``scoring`` says, the attack replaced by ``trir_values`` when
    given; ``outputs`` (:class:`textanon_lab.benchmarks.benchmark_settings.BenchmarkOutputs`): ``texts_out`` saves
    ``{system: {name: anonymized text}}`` (the input of ``evaluate-trir --anonymized``); ``generalizations_out``
    saves the generalizing rows' generalized spans, each with its original, replacement, kind, level and context
    (:mod:`textanon_lab.benchmarks.truth_audit`, the input of ``lab truth-audit sample``); ``output``: the result
    written there (:func:`write_result`, ``warn``ing). ``rows.search``: the search-risk rows
    (:class:`textanon_lab.benchmarks.search_rows.SearchBench`); ``judges``: the retrieval judges' columns
    (:mod:`textanon_lab.benchmarks.judges`); ``rows.generalize``: the generalization rows and their suppressing
    twins (:class:`textanon_lab.benchmarks.generalization.GeneralizeBench`); ``rows.groups``: the row groups to run
    (:data:`GROUPS`; default all); ``scoring.tpi_lm``: the SmolLM2 TPI column; ``fluency_corpus``: a WikiActors file
    whose public bodies of people NOT evaluated here train the fluency model of the readability columns
    (:func:`fluency_texts`; None: no fluency column)."""
    thresholds, model, trained_model, llm_file = rows.thresholds, rows.model, rows.trained_model, rows.llm_file
    search, generalize, groups = rows.search, rows.generalize, rows.groups
    output, texts_out, generalizations_out = outputs.output, outputs.texts_out, outputs.generalizations_out
    skip_trir, trir_seeds = scoring.skip_trir, scoring.trir_seeds
    t0 = time.perf_counter()

    groups = set(GROUPS if groups is None else groups)
    if groups - set(GROUPS):
        raise BenchmarkError(f"unknown row groups {sorted(groups - set(GROUPS))}; expected some of {GROUPS}")
    records = load_records(data, limit)
    systems = (
        run_systems(records, thresholds, model, trained_model, rows.include_presidio) if "baselines" in groups else {}
    )
    systems.update(search_systems(records, search) if search and "search" in groups else {})
    systems.update(generalize_systems(records, generalize) if generalize and "generalization" in groups else {})
    systems.update(text_columns(records, llm_file) if "published" in groups else {})
    give_target_knowledge(records, systems)
    fluency = fluency_texts(fluency_corpus, records) if fluency_corpus else None
    scored = score(records, systems, scoring, trir_values=trir_values, fluency_corpus=fluency)
    judged = add_judge_columns(records, systems, scored) if judges else None
    if generalizations_out:
        write_generalizations(generalizations_out, systems, {r.name: r.original for r in records})
    if texts_out:
        Path(texts_out).parent.mkdir(parents=True, exist_ok=True)
        Path(texts_out).write_text(
            json.dumps({k: v["texts"] for k, v in systems.items()}, ensure_ascii=False) + "\n", encoding="utf8"
        )
    result = {
        "rows": scored,
        "throughput_ratio_vs_presidio": throughput_ratio(scored),
        "settings": {
            "data": str(data),
            "documents": len(records),
            "model": model,
            "trained_model": trained_model,
            "thresholds": list(thresholds),
            "llm_anonymizations": str(llm_file) if llm_file else None,
            "trir": (
                "not run (--skip-trir): the attack needs a GPU or hours of CPU"
                if skip_trir
                else "given with --trir-from"
                if trir_values is not None
                else "textanon_eval.trir defaults, one attack trained per seed on public_knowledge "
                "(cached); trir = mean, trir_sd = sample sd over the seeds"
            ),
            "trir_seeds": list(trir_seeds) if trir_values is None and not skip_trir else None,
            "tpi": "headline: word-frequency IC (wordfreq, independent of the anonymizer), mean over "
            "documents; tpi_lm: the offline LM textanon minimizes (SmolLM2), favours textanon",
            "target_known": "every system run here (textanon, Presidio, spaCy NER, mask-all, LLM designs) "
            "has the target's name masked everywhere (textanon.detect.target.find_target_mentions); "
            "published columns are fixed texts, scored as published",
            "precision_recall": "token level (\\w+) against manual_abstract aligned to original_abstract",
            "speed": "docs/s after loading + warm-up (load_s apart), each system alone in a fresh process, "
            "same documents",
            "judges": judged,
            "readability": readability_settings(fluency_corpus, fluency),
            "search": search.settings() if search else None,
            "generalization": generalize.settings() if generalize else None,
            "groups": sorted(groups),
            "wall_s": round(time.perf_counter() - t0, 1),
        },
    }
    if output and set(groups) != set(GROUPS) and Path(output).exists():
        result = merge_rows(json.loads(Path(output).read_text(encoding="utf8")), result)
    if output:
        write_result(output, result, warn)
    return result


def merge_rows(earlier: dict, partial: dict) -> dict:
    """``earlier`` (a benchmark result) with the rows of ``partial`` (a run of some row groups) in place of its rows of
    the same names (appended when new), the settings ``partial`` sets and the partial run recorded. Earlier rows
    scored by other retrieval judges refuse the merge (:func:`textanon_lab.benchmarks.judges.carried_rows`)."""
    names = {r["system"] for r in partial["rows"]}
    before = {r["system"]: r for r in earlier["rows"]}
    kept = [_keep_published_values(r, before.get(r["system"])) for r in partial["rows"]]
    try:
        carried = carried_rows([r for r in earlier["rows"] if r["system"] not in names], partial["rows"])
    except JudgeMismatch as err:
        raise BenchmarkError(str(err)) from err
    rows = carried + kept
    settings = dict(earlier.get("settings", {}))
    for key in ("generalization", "search"):
        if partial["settings"].get(key):
            settings[key] = partial["settings"][key]
    runs = list(settings.get("partial_runs", [])) + [
        {k: partial["settings"][k] for k in ("groups", "wall_s", "trir", "tpi") if k in partial["settings"]}
        | {"rows": sorted(names)}
    ]
    settings["partial_runs"] = runs
    return dict(earlier, rows=rows, settings=settings, throughput_ratio_vs_presidio=throughput_ratio(rows))


#: the slow columns a partial run may skip (--skip-trir, --no-tpi-lm): value field -> the fields that go with it
SKIPPABLE = {"trir": ("trir", "trir_sd", "trir_seeds"), "tpi_lm": ("tpi_lm",)}


def _keep_published_values(row: dict, earlier: Optional[dict]) -> dict:
    """A published anonymization's row of a partial run that skipped the attack or the SmolLM2 TPI keeps the earlier
    run's values of those: its text is fixed (the dataset's), so they are too (``kept_from_earlier_run`` names
    them); every other row's values are those of its own run."""
    if row.get("target_known") != "as published" or not earlier:
        return row
    kept = [k for k in SKIPPABLE if row.get(k) is None and earlier.get(k) is not None]
    if not kept:
        return row
    return dict(row, **{f: earlier.get(f) for k in kept for f in SKIPPABLE[k]}, kept_from_earlier_run=kept)


def merge_trir(output: Path, trir_from: Path, warn: Callable[[str], None] = print) -> dict:
    """``benchmark --merge-only``: the TRIR of ``trir_from`` (``{"trir": {system: % or [% per seed]}}``) filled into
    the result already in ``output``, written again (:func:`write_result`). Returns the result."""
    trir_values = read_trir_values(trir_from)
    if not (trir_values and Path(output).exists()):
        raise BenchmarkError("--merge-only needs --trir-from and an existing --output result")
    result = json.loads(Path(output).read_text(encoding="utf8"))
    fill_trir(result["rows"], trir_values)
    result["settings"]["trir"] = f"from {trir_from}"
    write_result(output, result, warn)
    return result


def read_trir_values(path: Optional[Path]) -> Optional[Dict[str, object]]:
    """``{system: % or [% per seed]}`` of a TRIR file ``{"trir": {...}}`` (e.g. ``evaluate-trir`` output)."""
    return json.loads(Path(path).read_text(encoding="utf8"))["trir"] if path else None


def write_result(output: Path, result: dict, warn: Callable[[str], None] = print) -> None:
    """``output`` (JSON with provenance), its :func:`markdown` table (``.md``), when it has TRIR values the
    TPI-vs-TRIR :func:`plot` (``.png``; a plot of an earlier run is removed, with a ``warn``ing) and, when it
    has the retrieval judges' columns, their plot (``_judges.png``)."""
    write_metrics(output, result)
    if any(r.get("bm25_reid") is not None for r in result["rows"]):
        plot_judges(result, Path(output).with_name(Path(output).stem + "_judges.png"))
    png = Path(output).with_suffix(".png")
    Path(output).with_suffix(".md").write_text(markdown(result), encoding="utf8")
    if has_trir(result):
        plot(result, png)
    elif png.exists():  # a plot of an earlier run would contradict the new table
        png.unlink()
        warn(f"No TRIR in this run: removed the earlier plot {png}")


def has_trir(result: dict) -> bool:
    """Whether any row of the benchmark ``result`` has a TRIR value."""
    return any(r["trir"] is not None for r in result["rows"])


def markdown(result: dict) -> str:
    """The benchmark table (one row per system) with the notes on throughput, target knowledge, TPI and TRIR."""
    cols = [
        "system",
        "target_known",
        "trir",
        "tpi",
        "tpi_lm",
        "precision",
        "recall",
        "masked_share",
        "fragment_rate",
        "adjacent_placeholders",
        "fluency_ratio",
        "docs_per_s",
        "load_s",
        "peak_rss_mb",
    ]
    if any(r.get("bm25_reid") is not None for r in result["rows"]):
        cols[3:3] = ["bm25_reid", "dense_reid"]
    titles = {"trir": "TRIR % (mean ± sd)", "tpi": "TPI (wordfreq)", "tpi_lm": "TPI (SmolLM2)"}
    titles.update(bm25_reid="BM25 judge %", dense_reid="MiniLM judge %")
    titles.update(fragment_rate="fragment rate", adjacent_placeholders="adjacent placeholders")
    titles.update(fluency_ratio="fluency (perplexity ×)")
    lines = ["| " + " | ".join(titles.get(c, c) for c in cols) + " |", "|" + "---|" * len(cols)]
    for r in result["rows"]:
        cells = [
            format_mean_sd(r.get("trir"), r.get("trir_sd")) if c == "trir" else ("–" if r.get(c) is None else str(r[c]))
            for c in cols
        ]
        lines.append("| " + " | ".join(cells) + " |")
    tr, seeds = result["throughput_ratio_vs_presidio"], result["settings"].get("trir_seeds")
    lines += [
        "",
        f"Throughput vs Presidio (same run, same documents): default pipeline {tr['default_pipeline']}×, "
        f"fastest textanon variant ({tr['fastest_variant_name']}) {tr['fastest_variant']}×.",
        "",
        "target_known: True = the protected person's name is masked everywhere for that system (all systems "
        "run here get the same knowledge); 'as published' = a fixed text from the dataset, scored as published.",
        "TPI (wordfreq) is the headline utility (information content from word frequencies, independent of the "
        "anonymizer); TPI (SmolLM2) uses the model textanon's optimizer minimizes and favours textanon.",
        "Readability: fragment rate = share of masks that leave part of a name, title or date visible; adjacent "
        "placeholders = share of placeholders next to another one (no word between); fluency = perplexity of the "
        "anonymized text (placeholders read as their label) / the original's, under a trigram model of public "
        "bodies of people not evaluated (docs/readability.md). Lower is more readable; manual is the reference.",
        (
            f"TRIR: mean ± sample sd over {len(seeds)} attack seed(s) {seeds}."
            if seeds
            else f"TRIR: {result['settings'].get('trir', 'not run')}."
        ),
    ]

    return "\n".join(lines) + "\n" + note(result) + search_markdown(result) + generalization_markdown(result)


def plot(result: dict, path: Path) -> None:
    """PNG of TPI against TRIR for the rows that have a TRIR value (the threshold sweep as a line)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result["rows"] if r["trir"] is not None]
    fig, ax = plt.subplots(figsize=(8, 6))
    sweep = sorted((r for r in rows if r["sweep_threshold"] is not None), key=lambda r: r["sweep_threshold"])
    if sweep:
        ax.plot(
            [r["tpi"] for r in sweep],
            [r["trir"] for r in sweep],
            "-o",
            ms=3,
            color="tab:green",
            label="textanon threshold sweep",
        )
    for r in rows:
        if r["sweep_threshold"] is None:
            ax.errorbar(r["tpi"], r["trir"], yerr=r.get("trir_sd") or 0, fmt="o", ms=5, capsize=2)
            ax.annotate(r["system"], (r["tpi"], r["trir"]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("TPI, word-frequency IC (share of information preserved) →  more useful")
    ax.set_ylabel("TRIR (% re-identified) →  less private")
    ax.set_title(f"Privacy vs utility, {Path(result['settings']['data']).name}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
