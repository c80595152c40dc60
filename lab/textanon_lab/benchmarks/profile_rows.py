"""The profiles benchmark and the prior's settings.

* :func:`prior_sweep` — the ``fast`` profile's prior settings (``n_docs``, generalization on or off) on the
  development pseudo-abstracts of NON-evaluated actors (``index dev-set``), judged by the BM25 and MiniLM
  retrieval attackers over their remaining bodies; utility by TPI under SmolLM2 (the prior uses word
  frequencies, so the word-frequency TPI is reported beside it, not used to choose) — ``lab select-prior``;
* :func:`profile_rows` — every profile as a user runs it (:func:`textanon.profiles.load`, the code of
  ``textanon anonymize --profile``), Presidio and the published manual anonymization in the same run, the
  target's name masked for every system: both judges, TRIR (when the attack is run), TPI, masked share,
  docs/s as a multiple of Presidio's, peak RSS — ``lab profiles``, the README's profile table.
"""

import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from textanon.labels import DATETIME, QUANTITY
from textanon.profiles import FAST, GENERALIZE, PARSER, SEARCH, load, profile
from textanon.render.masking import apply
from textanon_eval.provenance import write_metrics
from textanon_eval.scoring import cell, speed_cell, trir_cell
from textanon_lab.benchmarks.benchmark_settings import ScoreSettings
from textanon_lab.benchmarks.harness import (
    fluency_texts,
    give_target_knowledge,
    load_records,
    readability_settings,
    score,
    text_columns,
)
from textanon_lab.benchmarks.judges import add_judge_columns
from textanon_lab.benchmarks.systems import profile_masks, run_isolated

#: the settings examined for the fast profile's prior, in two rounds fixed before each sweep (docs/profiles.md): the
#: first (n_docs 1e6..1e9, generalization off / on) met no setting of the rule — none masked enough, and
#: generalization ran at under 1 doc/s —, so the second looks at smaller populations and more candidates, without
#: generalization
PRIOR_GRID_1: Tuple[Dict[str, object], ...] = tuple(
    {"n_docs": n, "generalize": g} for n in (1_000_000, 10_000_000, 100_000_000, 1_000_000_000) for g in (False, True)
)
PRIOR_GRID: Tuple[Dict[str, object], ...] = tuple(
    {"n_docs": n, "generalize": False, "candidate_rare_df": rare}
    for n in (10_000, 30_000, 100_000, 300_000)
    for rare in (0.02, 0.1)
)


def _docs(records) -> List[Tuple[str, str, str]]:
    return [(r.name, r.original, r.name) for r in records]


#: the optimizer's setting of the labels it masks whatever their risk, as a ``spacy.load`` override
OPTIMIZER_MASK_LABELS = "components.textanon_optimizer.mask_labels"
#: ``generalize`` of a prior setting: only dates and numbers generalized (no WordNet look-up, no type of a name)
DATES_AND_NUMBERS = "dates and numbers"
#: a third look (2026-11-27, after the generalizer's pair counts over the prior were vectorized): generalization off,
#: for dates and numbers only, and on, at the chosen population and a smaller one (``lab select-prior --grid 3``)
PRIOR_GRID_3: Tuple[Dict[str, object], ...] = tuple(
    {"n_docs": n, "generalize": g} for n in (10_000, 3_000) for g in (False, DATES_AND_NUMBERS, True)
)
#: a fourth look (2026-11-27, after titles before a release year became units of the decision, which masks more):
#: the shipped population and larger ones, without generalization (decision 4: the default's speed)
PRIOR_GRID_4: Tuple[Dict[str, object], ...] = tuple(
    {"n_docs": n, "generalize": False} for n in (10_000, 20_000, 30_000, 50_000)
)
#: a fifth look (2026-11-27, after the tagger-less phrase candidates put a verb or an adverb apart, the search risk's
#: ``candidate_verbs_apart``): without and with it at the population shipped then (1e4), with it at the next one (2e4:
#: selected, decision 5)
PRIOR_GRID_5: Tuple[Dict[str, object], ...] = (
    {"n_docs": 10_000, "generalize": False, "verbs_apart": False},
    {"n_docs": 10_000, "generalize": False, "verbs_apart": True},
    {"n_docs": 20_000, "generalize": False, "verbs_apart": True},
)
#: a sixth look (2026-11-30): the fast profile *generalizing* (``--replacement generalize``, the "fast, generalize"
#: row, and the default once it is fast enough: decision 4) at the shipped population and two smaller ones; it runs
#: the package's n_docs (2e4, decision 5), which no round examined with generalization (round 3 chose 1e4 for it
#: before the verbs were put apart). Rule: :func:`select_round6`
PRIOR_GRID_6: Tuple[Dict[str, object], ...] = tuple({"n_docs": n, "generalize": True} for n in (5_000, 10_000, 20_000))
#: the key of a setting that names the labels the optimizer masks whatever their risk (``mask_labels``)
MASK_LABELS_SETTING = "mask_labels"
#: a seventh look (2026-12-02): other people's names. The fast profile keeps a person's name that the word-frequency
#: prior finds common ("Sarah said the complaint by Kevin would be ***": users' documents of sessions 72-76, where a
#: verb was masked as the cheapest risk breaker and the names of the people around the target stayed). TAB counts every
#: person's name as a direct identifier; the shipped setting, and the same with every PERSON mention masked. Rule:
#: :func:`select_round7`, fixed with the grid before the run
PRIOR_GRID_7: Tuple[Dict[str, object], ...] = (
    {"n_docs": 5_000, "generalize": True},
    {"n_docs": 5_000, "generalize": True, MASK_LABELS_SETTING: ["PERSON"]},
)
#: the grids by their round (``lab select-prior --grid N``; round 2 chose the shipped population, round 5 the
#: phrase candidates' verbs apart)
PRIOR_GRIDS = {
    1: PRIOR_GRID_1,
    2: PRIOR_GRID,
    3: PRIOR_GRID_3,
    4: PRIOR_GRID_4,
    5: PRIOR_GRID_5,
    6: PRIOR_GRID_6,
    7: PRIOR_GRID_7,
}


def prior_pipeline(
    model: str,
    n_docs: int,
    generalize: Union[bool, str],
    candidate_rare_df: Optional[float] = None,
    verbs_apart: Optional[bool] = None,
    mask_labels: Optional[List[str]] = None,
):
    """The fast profile with the prior's ``n_docs``, the search risk's ``candidate_rare_df`` and
    ``candidate_verbs_apart``, the optimizer's ``mask_labels`` (None: the package's) and generalization off (False),
    on (True) or for dates and numbers only (:data:`DATES_AND_NUMBERS`) (``lab select-prior``): config overrides on
    top of the profile's."""
    config: Dict[str, object] = {"components.textanon_search_risk.index.n_docs": n_docs}
    if mask_labels is not None:
        config[OPTIMIZER_MASK_LABELS] = list(mask_labels)
    if candidate_rare_df is not None:
        config["components.textanon_search_risk.candidate_rare_df"] = candidate_rare_df
    if verbs_apart is not None:
        config["components.textanon_search_risk.candidate_verbs_apart"] = verbs_apart
    if generalize == DATES_AND_NUMBERS:
        config["components.textanon_generalizer.generalized_labels"] = [DATETIME, QUANTITY]
    return load(FAST, model, config=config, replacement=GENERALIZE if generalize else "suppression")


def prior_sweep(dev: Path, model: str = "en_textanon", grid=PRIOR_GRID, limit: Optional[int] = None, rule=None) -> dict:
    """Every setting of ``grid`` on the development file ``dev``: rows with both judges, TPI (SmolLM2 and word
    frequencies), masked share and seconds; the selection rule applied (``rule``, by default :func:`select`)."""
    records = load_records(dev, limit)

    def pipeline(setting):
        return lambda: prior_pipeline(
            model,
            int(setting["n_docs"]),
            setting["generalize"],
            setting.get("candidate_rare_df"),
            setting.get("verbs_apart"),
            setting.get(MASK_LABELS_SETTING),
        )

    rows, judges = dev_rows(records, [(label(s), s, pipeline(s)) for s in grid])
    chosen = (rule or select)(rows)
    return {"dev": str(dev), "documents": len(records), "rows": rows, "judges": judges, "selected": chosen}


def dev_rows(records, runs: Sequence[Tuple[str, Dict[str, object], Callable[[], object]]]) -> Tuple[List[dict], dict]:
    """Each ``(row label, setting, pipeline loader)`` of ``runs`` on the development ``records`` (each loaded in
    turn, the target's name known): the scored rows (both judges, TPI under word frequencies and SmolLM2, masked share,
    docs/s) with their setting, and what the judges record."""
    docs = _docs(records)
    systems: Dict[str, dict] = {}
    for name, setting, loader in runs:
        nlp = loader()
        t0 = time.perf_counter()
        out = profile_masks(docs, nlp)
        systems[name] = dict(out, seconds=time.perf_counter() - t0, setting=dict(setting))
    give_target_knowledge(records, systems)
    rows = score(records, systems, ScoreSettings(skip_trir=True, tpi_lm=True))
    judges = add_judge_columns(records, systems, rows)
    for row in rows:
        row["setting"] = systems[row["system"]]["setting"]
    return rows, judges


def label(setting: Dict[str, object]) -> str:
    rare = f", rare_df={setting['candidate_rare_df']}" if setting.get("candidate_rare_df") is not None else ""
    if setting.get("verbs_apart") is not None:
        rare += ", verbs apart" if setting["verbs_apart"] else ", verbs in runs"
    generalize = setting["generalize"]
    named = f", generalize {generalize}" if isinstance(generalize, str) else ", generalize" if generalize else ""
    return f"n_docs={setting['n_docs']:.0e}{rare}{named}{_masked_label(setting)}"


def _masked_label(setting: Dict[str, object]) -> str:
    labels = setting.get(MASK_LABELS_SETTING)
    return f", every {'/'.join(labels)} masked" if labels else ""


#: the selection rule, fixed before the sweep: the highest SmolLM2 TPI among the settings whose dev re-identification
#: is at most these rates (below the evaluation targets of 70 % / 40 %, for the difference between dev and eval)
MAX_BM25, MAX_DENSE = 60.0, 30.0


#: round 6's rule, fixed before its run (docs/profiles.md): the bars of rounds 2-5 left no margin on the evaluated
#: abstracts — the generalizing fast profile gave 48 % (BM25) on dev and 72 % on the evaluated abstracts (runs 219, 222:
#: a gap of 24 points, read on evaluation output and disclosed) — so the dev BM25 bar is the issue's 70 % less that
#: gap; the TPI bar is the issue's 0.45 plus the dev-to-evaluation drop of that profile's SmolLM2 TPI (0.546 -> 0.518)
ROUND6_BM25, ROUND6_DENSE, ROUND6_TPI = 46.0, 30.0, 0.48
#: round 6's shipped setting: what stays when no setting passes
ROUND6_SHIPPED = 20_000


def select_round6(rows: List[dict]) -> dict:
    """Round 6's rule: among the settings with dev BM25 <= :data:`ROUND6_BM25` %, MiniLM <= :data:`ROUND6_DENSE` %
    and SmolLM2 TPI >= :data:`ROUND6_TPI`, the highest SmolLM2 TPI; when none passes, the shipped population stays."""
    chosen = _highest_tpi(
        rows, lambda r: r["bm25_reid"] <= ROUND6_BM25 and r["dense_reid"] <= ROUND6_DENSE and r["tpi_lm"] >= ROUND6_TPI
    )
    if chosen is not None:
        why = (
            f"highest SmolLM2 TPI with BM25 <= {ROUND6_BM25} %, MiniLM <= {ROUND6_DENSE} % and SmolLM2 TPI >= "
            f"{ROUND6_TPI} on dev"
        )
    else:
        chosen = next(r for r in rows if r["setting"]["n_docs"] == ROUND6_SHIPPED)
        why = "no setting met the rule: the shipped population stays"
    return {"system": chosen["system"], "setting": chosen["setting"], "rule": why}


#: round 7's rule, fixed with its grid before the run: every PERSON mention masked is adopted when, on dev, it keeps
#: round 6's utility bar (SmolLM2 TPI >= :data:`ROUND6_TPI`) and neither judge re-identifies more than
#: :data:`NAMES_TOLERANCE` points (one document of 50) above the shipped setting's; else the shipped setting stays
NAMES_TOLERANCE = 2.0


def select_round7(rows: List[dict]) -> dict:
    """Round 7's rule (:data:`NAMES_TOLERANCE`): the setting that masks every PERSON mention when it keeps the fast
    profile's dev utility bar and both judges within one document of the shipped setting's; else the shipped one."""
    return _select_names(rows, lambda r: r["tpi_lm"] >= ROUND6_TPI, f"SmolLM2 TPI >= {ROUND6_TPI}")


def _select_names(rows: List[dict], useful, bar: str) -> dict:
    """The names rounds' rule: the row with ``mask_labels`` when it passes ``useful`` (described by ``bar``) and
    neither judge is more than :data:`NAMES_TOLERANCE` points above the shipped row's (the one without)."""
    shipped = next(r for r in rows if not r["setting"].get(MASK_LABELS_SETTING))
    names = next(r for r in rows if r["setting"].get(MASK_LABELS_SETTING))
    private = all(names[j] <= shipped[j] + NAMES_TOLERANCE for j in ("bm25_reid", "dense_reid"))
    if useful(names) and private:
        chosen = names
        why = f"{bar} on dev, both judges within {NAMES_TOLERANCE:g} points of the shipped setting's"
    else:
        chosen = shipped
        why = f"the names setting missed {bar} or a judge's tolerance on dev: the shipped setting stays"
    return {"system": chosen["system"], "setting": chosen["setting"], "rule": why}


def _highest_tpi(rows: List[dict], passes) -> Optional[dict]:
    """The rows' highest SmolLM2 TPI (then the lower BM25 judge) among those that ``passes`` its bars; None if none
    does (each round's rule says what then)."""
    ok = [r for r in rows if passes(r)]
    return max(ok, key=lambda r: (r["tpi_lm"], -r["bm25_reid"])) if ok else None


#: the rule of each round whose rule is not :func:`select`'s
PRIOR_RULES = {6: select_round6, 7: select_round7}


def select(rows: List[dict]) -> dict:
    """The row chosen by the rule (:data:`MAX_BM25`, :data:`MAX_DENSE`, then TPI); the most private if none passes."""
    chosen = _highest_tpi(rows, lambda r: r["bm25_reid"] <= MAX_BM25 and r["dense_reid"] <= MAX_DENSE)
    if chosen is not None:
        why = f"highest SmolLM2 TPI with BM25 <= {MAX_BM25} % and MiniLM <= {MAX_DENSE} % on dev"
    else:
        chosen = min(rows, key=lambda r: (max(r["bm25_reid"], r["dense_reid"]), -r["tpi_lm"]))
        why = "no setting met the rule: the most private"
    return {"system": chosen["system"], "setting": chosen["setting"], "rule": why}


#: the search profile's stronger-attacker prior (``textanon_search_risk``'s ``assume_unindexed``) examined on the
#: development pseudo-abstracts with the profile as shipped (generalizing: ``lab select-search-profile``, 2026-11-29;
#: the value shipped until then was chosen by ``select-search`` for a pipeline that suppressed): the shipped value
#: and three larger ones. Grid and rule (:func:`select_search`) fixed before the sweep.
SEARCH_GRID: Tuple[Dict[str, object], ...] = tuple({"assume_unindexed": a} for a in (0.1, 0.15, 0.2, 0.3))
#: the search profile's second round (2026-11-29): the shipped attacker with and without en_core_web_sm's tagger and
#: parser (``parser``: whether they run; without them the search risk proposes the fast profile's tagger-less phrase
#: candidates and units have no noun chunks), the rule of the first round (:func:`select_search`), both fixed before
#: the run
SEARCH_GRID_2: Tuple[Dict[str, object], ...] = (
    {"assume_unindexed": 0.1, "parser": True},
    {"assume_unindexed": 0.1, "parser": False},
)
#: the search profile's third round (2026-11-30): since decision 8 the profile runs no parser, which changed what the
#: stronger attacker costs; the shipped setting (``assume_unindexed`` 0.1, ``k_rank`` 30), two stronger attackers
#: between round 1's 0.1 and 0.15, and a wider targeted bar (the target pushed out of the top 60, not 30), the rule of
#: round 1 (:func:`select_search`), both fixed before the run. Asked because the profile misses the issue's privacy bars
#: on the evaluated abstracts (runs 197-217); the answer comes from development data only
SEARCH_GRID_3: Tuple[Dict[str, object], ...] = (
    {"assume_unindexed": 0.1, "k_rank": 30},
    {"assume_unindexed": 0.125, "k_rank": 30},
    {"assume_unindexed": 0.15, "k_rank": 30},
    {"assume_unindexed": 0.1, "k_rank": 60},
)
#: the search profile's fourth round (2026-12-02): the question of the fast profile's round 7 (other people's names:
#: every PERSON mention masked, as TAB counts a name a direct identifier) for the search profile, at the shipped
#: attacker. Rule: :func:`select_search_names`, fixed with the grid before the run
SEARCH_GRID_4: Tuple[Dict[str, object], ...] = (
    {"assume_unindexed": 0.1},
    {"assume_unindexed": 0.1, MASK_LABELS_SETTING: ["PERSON"]},
)
#: the search profile's fifth round (2026-12-02, session 77): the shipped attacker (``assume_unindexed`` 0.1, every
#: PERSON masked since decision 13) and two stronger ones, on a second, larger development set (100 summary
#: pseudo-abstracts of non-evaluated actors, ``index dev-set`` seed 1): on seed 0's 50 the judges no longer told the
#: settings apart (round 3: MiniLM 12 % for all three). Rule: :func:`select_search_round5`, fixed with the grid before
#: the run. Asked because the profile misses the issue's privacy bars on the evaluated abstracts (run 288: BM25 24 %,
#: MiniLM 14 %); the answer comes from development data only
SEARCH_GRID_5: Tuple[Dict[str, object], ...] = tuple({"assume_unindexed": a} for a in (0.1, 0.125, 0.15))
#: the search profile's grids by their round (``lab select-search-profile --grid N``)
SEARCH_GRIDS = {1: SEARCH_GRID, 2: SEARCH_GRID_2, 3: SEARCH_GRID_3, 4: SEARCH_GRID_4, 5: SEARCH_GRID_5}
#: the bars of the search profile's rule: the manual anonymization's word-frequency TPI and masked share on the
#: evaluated abstracts (the issue's utility bar; ``select-search``'s bars), and how far above the grid's lowest
#: re-identification a setting may be and still count as the most private (``select-search``'s tolerance)
SEARCH_MIN_TPI, SEARCH_MAX_MASKED, SEARCH_TOLERANCE = 0.397, 0.554, 2.0
#: the key of a search grid's setting that turns en_core_web_sm's tagger and parser on or off (not a search risk's)
PARSER_SETTING = "parser"


def search_sweep(
    dev: Path, index: str, model: str = "en_textanon", grid=SEARCH_GRID, limit: Optional[int] = None, rule=None
) -> dict:
    """Every setting of ``grid`` (search risk settings) with the search profile as users run it
    (:func:`textanon.profiles.load`, over the development ``index``) on the development file ``dev``: rows with both
    judges, TPI (word frequencies, the headline: the profile's IC comes from the index; SmolLM2 beside it), masked
    share and seconds; the rule applied (:func:`select_search`)."""
    records = load_records(dev, limit)

    def pipeline(setting):
        config = search_config(setting, index)
        return lambda: load(SEARCH, model, index, config=config)

    rows, judges = dev_rows(records, [(search_label(s), s, pipeline(s)) for s in grid])
    return {
        "dev": str(dev),
        "index": str(index),
        "documents": len(records),
        "rows": rows,
        "judges": judges,
        "selected": (rule or select_search)(rows),
    }


def search_config(setting: Dict[str, object], index: str) -> Dict[str, object]:
    """The ``spacy.load`` overrides of a search grid's ``setting`` on top of the search profile's: the search risk's
    settings, and en_core_web_sm's tagger and parser on or off (:data:`PARSER_SETTING`) whatever the profile ships."""
    config: Dict[str, object] = {
        f"components.textanon_search_risk.{k}": v
        for k, v in setting.items()
        if k not in (PARSER_SETTING, MASK_LABELS_SETTING)
    }
    if MASK_LABELS_SETTING in setting:
        config[OPTIMIZER_MASK_LABELS] = list(setting[MASK_LABELS_SETTING])
    if PARSER_SETTING in setting:
        others = [c for c in profile(SEARCH, index)["nlp.disabled"] if c not in PARSER]
        config["nlp.disabled"] = others + ([] if setting[PARSER_SETTING] else list(PARSER))
    return config


def search_label(setting: Dict[str, object]) -> str:
    named = ", ".join(f"{k}={v}" for k, v in setting.items() if k != MASK_LABELS_SETTING)
    return named + _masked_label(setting)


def select_search(rows: List[dict]) -> dict:
    """The search profile's rule: among the rows keeping a word-frequency TPI of at least :data:`SEARCH_MIN_TPI` and
    masking at most :data:`SEARCH_MAX_MASKED` of the tokens (all rows when none does), those whose privacy (the higher
    of the two judges' rates) is within :data:`SEARCH_TOLERANCE` points of the lowest; of those the highest TPI."""
    allowed = [r for r in rows if r["tpi"] >= SEARCH_MIN_TPI and r["masked_share"] <= SEARCH_MAX_MASKED]
    why = (
        f"the most private (highest judge within {SEARCH_TOLERANCE:g} points of the lowest), then the highest "
        f"word-frequency TPI, among settings with TPI >= {SEARCH_MIN_TPI} and masked share <= {SEARCH_MAX_MASKED}"
    )
    if not allowed:
        allowed, why = rows, "no setting kept the TPI and masked-share bars: " + why.split(", among")[0]
    privacy = lambda r: max(r["bm25_reid"], r["dense_reid"])  # noqa: E731
    best = min(privacy(r) for r in allowed)
    chosen = max((r for r in allowed if privacy(r) <= best + SEARCH_TOLERANCE), key=lambda r: r["tpi"])
    return {"system": chosen["system"], "setting": chosen["setting"], "rule": why}


def select_search_names(rows: List[dict]) -> dict:
    """The search profile's fourth round: :func:`select_round7`'s rule with the search profile's utility bars (a
    word-frequency TPI of at least :data:`SEARCH_MIN_TPI`, a masked share of at most :data:`SEARCH_MAX_MASKED`)."""
    return _select_names(
        rows,
        lambda r: r["tpi"] >= SEARCH_MIN_TPI and r["masked_share"] <= SEARCH_MAX_MASKED,
        f"word-frequency TPI >= {SEARCH_MIN_TPI} and masked share <= {SEARCH_MAX_MASKED}",
    )


#: round 5's tolerance: how far above the lowest sum of the two judges' rates a setting still counts as the most
#: private (one document of the 100)
ROUND5_TOLERANCE = 1.0


def select_search_round5(rows: List[dict]) -> dict:
    """The search profile's fifth round (fixed with :data:`SEARCH_GRID_5` before the run). The first row is the
    shipped setting. A setting qualifies when it keeps the profile's utility bars (word-frequency TPI >=
    :data:`SEARCH_MIN_TPI`, masked share <= :data:`SEARCH_MAX_MASKED`) and neither judge is above the shipped
    setting's; of those, the ones whose sum of the two judges' rates is within :data:`ROUND5_TOLERANCE` of the lowest
    sum, then the highest TPI. The shipped setting stays when no other qualifies."""
    shipped = rows[0]
    bars = f"word-frequency TPI >= {SEARCH_MIN_TPI} and masked share <= {SEARCH_MAX_MASKED}"
    qualified = [
        r
        for r in rows
        if r["tpi"] >= SEARCH_MIN_TPI
        and r["masked_share"] <= SEARCH_MAX_MASKED
        and all(r[j] <= shipped[j] for j in ("bm25_reid", "dense_reid"))
    ]
    if not qualified:
        return {"system": shipped["system"], "setting": shipped["setting"], "rule": f"no setting kept {bars}: shipped"}
    both = lambda r: r["bm25_reid"] + r["dense_reid"]  # noqa: E731
    best = min(both(r) for r in qualified)
    chosen = max((r for r in qualified if both(r) <= best + ROUND5_TOLERANCE), key=lambda r: r["tpi"])
    why = (
        f"among settings with {bars} and neither judge above the shipped setting's: the lowest sum of the two judges "
        f"(within {ROUND5_TOLERANCE:g} point), then the highest word-frequency TPI"
    )
    return {"system": chosen["system"], "setting": chosen["setting"], "rule": why}


#: the rule of each search round whose rule is not :func:`select_search`'s
SEARCH_RULES = {4: select_search_names, 5: select_search_round5}


def prior_markdown(result: dict) -> str:
    lines = [
        "| setting | BM25 judge % | MiniLM judge % | TPI (SmolLM2) | TPI (wordfreq) | masked share | docs/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| {r['system']} | {r['bm25_reid']} | {r['dense_reid']} | {r['tpi_lm']} | {r['tpi']} | "
            f"{r['masked_share']} | {r['docs_per_s']} |"
        )
    s = result["selected"]
    lines += ["", f"Selected: **{s['system']}** ({s['rule']}). Dev: {result['dev']} ({result['documents']} docs)."]
    return "\n".join(lines) + "\n"


def write(output: Path, result: dict, markdown: str) -> None:
    write_metrics(output, result)
    Path(output).with_suffix(".md").write_text(markdown, encoding="utf-8")


def run_profile_isolated(
    records, profile: str, model: str, index: Optional[str], replacement: Optional[str] = None
) -> dict:
    """One profile in a fresh process on WikiActors records, the actor as target (:func:`run_profile_docs`)."""
    return run_profile_docs(_docs(records), profile, model, index, replacement)


def run_profile_docs(docs, profile: str, model: str, index: Optional[str], replacement: Optional[str] = None) -> dict:
    """One profile as users run it in a fresh process (:func:`textanon_lab.benchmarks.systems.run_isolated`) on
    ``(id, text, target)`` triples: masks, replacements, seconds after load and warm-up, peak RSS. ``replacement``:
    the optimizer's replacement in place of the profile's (``--replacement``; None: the profile's)."""
    result = run_isolated("textanon_profile", docs, profile=profile, model=model, index=index, replacement=replacement)
    if "error" in result:
        raise RuntimeError(f"profile {profile} failed: {result['error']}")
    inner = result.pop("masks")
    return dict(result, masks=inner["masks"], replacements=inner["replacements"])


#: the profile table's rows (label, profile, needs the index, replacement or None for the profile's) — every
#: profile of textanon.profiles, and the fast profile masking instead of generalizing over its prior
#: (``--replacement suppression``: the default until decision 12, faster, less private and less useful)
FAST_SUPPRESSION = "fast, suppression"
PROFILE_ROWS = (
    ("fast (default)", "fast", False, None),
    (FAST_SUPPRESSION, "fast", False, "suppression"),
    ("lm", "lm", False, None),
    ("search", "search", True, None),
    ("strict", "strict", False, None),
)
README_START, README_END = "<!-- profiles-table:start -->", "<!-- profiles-table:end -->"


def profile_rows(
    data: Path,
    model: str = "en_textanon",
    index: Optional[str] = None,
    skip_trir: bool = True,
    trir_seeds: Sequence[int] = (42,),
    limit: Optional[int] = None,
    fluency_corpus: Optional[Path] = None,
) -> dict:
    """Every profile (:data:`PROFILE_ROWS`; search only with ``index``), Presidio and the published manual
    anonymization on ``data``, the target's name masked for every system run here: judges, TRIR (unless
    ``skip_trir``), TPI (word frequencies and SmolLM2), masked share, the readability columns (fluency model trained
    on the bodies of ``fluency_corpus`` of people not evaluated: :func:`textanon_lab.benchmarks.harness.fluency_texts`;
    None: no fluency), docs/s, × Presidio, peak RSS."""
    records = load_records(data, limit)
    systems: Dict[str, dict] = {}
    for row_label, name, needs_index, replacement in PROFILE_ROWS:
        if needs_index and not index:
            continue
        systems[row_label] = run_profile_isolated(records, name, model, index if needs_index else None, replacement)
    presidio = run_isolated("presidio", _docs(records))
    if "error" in presidio:
        raise RuntimeError(f"presidio failed: {presidio['error']}")
    systems["Presidio (run here)"] = presidio
    systems.update({k: v for k, v in text_columns(records, None).items() if k.startswith("manual")})
    give_target_knowledge(records, systems)
    fluency = fluency_texts(fluency_corpus, records) if fluency_corpus else None
    rows = score(
        records, systems, ScoreSettings(trir_seeds=trir_seeds, skip_trir=skip_trir, tpi_lm=True), fluency_corpus=fluency
    )
    judges = add_judge_columns(records, systems, rows)
    base = next(r["docs_per_s"] for r in rows if r["system"].startswith("Presidio"))
    for row in rows:
        row["x_presidio"] = round(row["docs_per_s"] / base, 2) if row["docs_per_s"] and base else None
    return {
        "data": str(data),
        "documents": len(records),
        "model": model,
        "index": index,
        "trir_seeds": None if skip_trir else list(trir_seeds),
        "rows": rows,
        "judges": judges,
        "readability": readability_settings(fluency_corpus, fluency),
        "examples": examples(records, systems),
    }


#: the record whose first sentences the README shows through every profile (the first of the file: fixed before
#: any run), and how much of it
EXAMPLE_RECORD, EXAMPLE_CHARS = 0, 420


def examples(records, systems: Dict[str, dict], which: int = EXAMPLE_RECORD, chars: int = EXAMPLE_CHARS) -> dict:
    """Before/after of one document (its first sentences, up to ``chars`` characters, cut at a sentence end): the
    original, each profile's output as written (its replacements) and the published manual anonymization."""
    if not records:
        return {}
    record = records[min(which, len(records) - 1)]
    cut = _sentences_end(record.original, chars)
    out = {"document": record.name, "original": record.original[:cut], "rows": {}}
    for row_label, *_ in PROFILE_ROWS:
        replacements = systems.get(row_label, {}).get("replacements", {}).get(record.name)
        if replacements is not None:
            inside = [m for m in replacements if m[1] <= cut]
            out["rows"][row_label] = apply(record.original[:cut], inside)
    manual = (record.abstracts or {}).get("manual_abstract")
    if manual:
        out["rows"]["manual (published)"] = manual[: int(len(manual) * cut / max(1, len(record.original)))] + " …"
    return out


def _sentences_end(text: str, chars: int) -> int:
    """The end of the last sentence that ends within ``chars`` characters (all of ``chars`` when none does)."""
    ends = [i + 1 for i, c in enumerate(text[:chars]) if c in ".!?" and (i + 1 == len(text) or text[i + 1].isspace())]
    return ends[-1] if ends else min(chars, len(text))


def examples_markdown(result: dict) -> str:
    """The before/after paragraph of every profile (:func:`examples`)."""
    ex = result.get("examples") or {}
    if not ex:
        return ""
    lines = ["", f"Before/after ({ex['document']}, the first evaluated abstract, its first sentences):", ""]
    lines += [f"- **original**: {ex['original']}"]
    lines += [f"- **{row}**: {text}" for row, text in ex["rows"].items()]
    return "\n".join(lines) + "\n"


def profiles_markdown(result: dict) -> str:
    """The README's profile table: how to get each profile, both judges, TRIR, TPI, masked share, speed, memory."""
    how = {
        "fast (default)": '`spacy.load("en_textanon")`, `textanon anonymize IN -o OUT`',
        FAST_SUPPRESSION: '`spacy.load("en_textanon", config=textanon.profile("fast", replacement="suppression"))`, '
        "`--replacement suppression`",
        "lm": '`spacy.load("en_textanon", config=textanon.profile("lm"))`, `--profile lm`',
        "search": '`spacy.load("en_textanon", config=textanon.profile("search", index=DIR))`, `--index DIR`',
        "strict": '`spacy.load("en_textanon", config=textanon.profile("strict"))`, `--profile strict`',
    }
    lines = [
        "| profile | how | BM25 judge % | MiniLM judge % | TRIR % | TPI (SmolLM2) | TPI (wordfreq) | masked share "
        "| fragment rate | adjacent placeholders | fluency (perplexity ×) | docs/s (× Presidio) | peak RSS MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        trir, speed = trir_cell(r), speed_cell(r)
        lines.append(
            f"| {r['system']} | {how.get(r['system'], '')} | {cell(r.get('bm25_reid'))} "
            f"| {cell(r.get('dense_reid'))} "
            f"| {trir} | {cell(r.get('tpi_lm'))} | {cell(r.get('tpi'))} | {cell(r.get('masked_share'))} "
            f"| {cell(r.get('fragment_rate'))} | {cell(r.get('adjacent_placeholders'))} "
            f"| {cell(r.get('fluency_ratio'))} | {speed} "
            f"| {cell(r.get('peak_rss_mb'))} |"
        )
    seeds = result.get("trir_seeds")
    trir_note = "TRIR – : the attack was not run (`--trir-seeds`)"
    if seeds:
        spread = "mean ± sample sd over the seeds" if len(seeds) > 1 else "one attack: a few points are noise"
        trir_note = (
            "TRIR: % of the texts the trained re-identification attack links to their person (docs/trir.md), attack "
            f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))} ({spread})"
        )
    lines += [
        "",
        f"{result['documents']} WikiActors abstracts ({Path(result['data']).name}), the target's name known to every "
        "system run here; judges: BM25 and MiniLM over the evaluated people's full public bodies (% re-identified "
        "at rank 1; no profile uses them); TPI (SmolLM2) is the utility measure of the fast profile, whose prior "
        "uses word frequencies; docs/s after loading, in one process, in batches of the pipeline's batch size as "
        "`textanon anonymize` runs them, Presidio (one text at a time, its API) in the same run; "
        f"{trir_note}. Search index: {result['index'] or 'none'}. Readability (lower reads better; "
        "docs/readability.md): fragment rate = share of masks leaving part of a name, title or date visible; adjacent "
        "placeholders = share of placeholders next to another; fluency = perplexity of the output (placeholders read "
        "as their label) / the original's, under a trigram model of bodies of people not evaluated.",
    ]
    return "\n".join(lines) + "\n" + examples_markdown(result)


def update_readme(readme: Path, table: str) -> bool:
    """Put ``table`` between the README's profile-table markers; False when the markers are missing."""
    text = readme.read_text(encoding="utf-8")
    if README_START not in text or README_END not in text:
        return False
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(f"{head}{README_START}\n{table}{README_END}{tail}", encoding="utf-8")
    return True
