"""The ECHR re-identification benchmark (``lab benchmark-echr``): court cases as a second privacy benchmark.

The TAE set-up on the 27 echr-dev cases (``../shared/data/echr-dev``, README "data/echr-dev"):

* the text to protect: each case's ``text`` (``echr_dev_entities.json``), the protected person being the applicant;
* the attacker's background knowledge: the published judgments (``echr_dev_bk_public.json``, of which each text
  is an excerpt);
* rows: the seven reference anonymizations (``anonymizations/<method>.json``, TAE offsets applied as published),
  Presidio and every textanon profile run here (each in a fresh process), the search profile over an index of the
  27 judgments plus distractors (:func:`build_echr_index`);
* measures: both retrieval judges over the 27 judgments (:func:`textanon_lab.benchmarks.judges.add_judge_columns`),
  the headline TPI (word-frequency IC), masked share, docs/s, and TRIR only when attack seeds are given.

The cases become WikiActors records (:func:`load_cases`: ``name`` = the case id, ``public_knowledge`` = its
judgment, ``original_abstract`` = its text), so the WikiActors harness scores them unchanged. The applicants'
names (:func:`applicants`) are the knowledge every system run here gets: their mentions are masked afterwards
(:func:`give_applicant_knowledge`), as :func:`textanon_lab.benchmarks.harness.give_target_knowledge` does with the
actor's name; the reference anonymizations are scored as published, with the applicant-name characters they left
visible recorded.
"""

import json
import re
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from textanon.detect.target import find_target_mentions
from textanon.io.datasets.wikiactors import ORIGINAL, WikiActor, read_wikiactors
from textanon.render.masking import apply, merge, merge_offsets
from textanon.risk.search.builder import build_index
from textanon_eval.provenance import write_metrics
from textanon_eval.scoring import cell, speed_cell, trir_cell
from textanon_eval.trir.attack import TrirSettings
from textanon_lab.benchmarks.benchmark_settings import ScoreSettings
from textanon_lab.benchmarks.harness import covered_chars, mask_mentions, score
from textanon_lab.benchmarks.judges import add_judge_columns
from textanon_lab.benchmarks.profile_rows import PROFILE_ROWS, run_profile_docs
from textanon_lab.benchmarks.systems import run_isolated

ENTITIES, JUDGMENTS, ANONYMIZATIONS = "echr_dev_entities.json", "echr_dev_bk_public.json", "anonymizations"
#: the reference anonymizations of the TAE repository, in table order
METHODS = (
    "Manual_Supression",
    "Manual_Dou",
    "Manual_Presidio_gpt-3.5-turbo-0125",
    "Presidio_Entity",
    "spaCy_Entity",
    "St.NER3_Entity",
    "St.NER7_Entity",
)
PRESIDIO = "Presidio (run here)"


class EchrDataError(ValueError):
    """The echr-dev folder lacks a file the benchmark reads (the message names it)."""


# ---------------------------------------------------------------------------------------------------------- applicants
_TITLE = r"(?:Mr|Mrs|Ms|Miss|Dr|Sir|Dame|Lady|Lord)\.?"
_PARTICLES = {"von", "van", "de", "der", "den", "del", "della", "da", "di", "du", "le", "la", "bin", "ibn", "al"}
_WORD = re.compile(r"^[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’‑-]*$")
#: the introduction names the applicants: "... lodged with ... by [a British national,] Mr A B (“the applicant”)"
_LODGED_BY = re.compile(r"\blodged\b(?:[^.]|\.(?!\s+[A-Z])){0,400}?\bby\s+", re.S)
#: where the applicants' clause ends: the quoted "(“the applicant(s)”)", ", on <date>", ", respectively", a sentence
_CLAUSE_END = re.compile(
    r"\(\s*[“\"]the applicants?[”\"]\s*\)|,?\s+on \d{1,2} [A-Z][a-z]+ \d{4}|, respectively|(?<![A-Z])\.\s"
)
_NATIONALS = re.compile(r"^.*\b(?:nationals?|citizens?)\s*,\s*", re.S)
#: "The first applicant, Mr David Smith, ..." (older judgments name each applicant in a sentence of its own)
_NTH_APPLICANT = re.compile(
    r"\b[Tt]he (?:first|second|third|fourth|fifth|sixth) applicant,\s+((?:" + _TITLE + r"\s+)?[A-Z][^,()]{1,60}),"
)


#: "Mr Ruslan Kurkaev (“the applicant”)" anywhere in the introduction
_MARKED = re.compile(
    r"((?:" + _TITLE + r"\s+)?[A-Z][\w'’‑-]*(?:\s+(?:[A-Z][\w'’‑-]*|" + "|".join(sorted(_PARTICLES)) + r")){0,5})"
    r"\s*\(\s*[“\"]the applicant[”\"]\s*\)"
)


def applicants(text: str, intro_chars: int = 3000) -> List[str]:
    """The applicants' names in a judgment's introduction (the first ``intro_chars`` characters), by this rule:

    1. the clause after the first "lodged ... by", up to the quoted "(“the applicant(s)”)", ", on <date>",
       ", respectively" or the end of the sentence; parentheses without quotes ("(the first applicant)",
       "(introduced on ...)") are dropped, and so is a nationality ("a British national, ", "two Swedish citizens, ");
    2. the clause is split at commas and "and"; an item is a name when its words are capitalized (particles such as
       "von" allowed) — two words at least, or one title (Mr, Mrs, Ms, Miss, Dr...) and one word; an untitled item that
       follows a description ("an environmental group, Washington First Forum") is that description, not a person,
       unless it has a title; a lone first name before a full name borrows its surname ("Kirk and Lorraine Dickson"),
       other lone first names are not taken ("their children, Carl, Michael, ...");
    3. plus every "The first/second/... applicant, [Mr] NAME," and "[Mr] NAME (“the applicant”)" of the
       introduction.

    Names are returned without their title, in order, without repeats (nor a name inside another: "Bülow" of
    "Egon von Bülow"). A case whose applicant is not named this
    way (e.g. "the applicant" only) gets none."""
    intro = text[:intro_chars]
    names: List[str] = []
    m = _LODGED_BY.search(intro)
    if m:
        rest = re.sub(r"\([^()“”\"]*\)", " ", intro[m.end() : m.end() + 600])
        end = _CLAUSE_END.search(rest)
        clause = rest[: end.start()] if end else rest
        clause = _NATIONALS.sub("", clause)
        names += _names_in_clause(clause)
    for m in (*_NTH_APPLICANT.finditer(intro), *_MARKED.finditer(intro)):
        name = _name(m.group(1).strip())
        if name:
            names.append(name[1])
    names = list(dict.fromkeys(names))
    return [n for n in names if not any(n != m and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", m) for m in names)]


def _names_in_clause(clause: str) -> List[str]:
    items = [i.strip() for i in re.split(r",\s*|\s+and\s+", clause) if i.strip()]
    parsed = [_name(i) for i in items]
    out = []
    for k, p in enumerate(parsed):
        if p is None or (k > 0 and parsed[k - 1] is None and not p[0]):  # "an environmental group, Forum X"
            continue
        has_title, name = p
        if len(name.split()) == 1:
            after = parsed[k + 1] if k + 1 < len(parsed) else None
            if after and len(after[1].split()) >= 2:  # "Kirk and Lorraine Dickson"
                name = f"{name} {after[1].split()[-1]}"
            elif not has_title:
                continue
        out.append(name)
    return out


def _name(item: str) -> Optional[Tuple[bool, str]]:
    """(has a title, the name without it) when ``item`` is a person's name by the rule of :func:`applicants`."""
    m = re.match(_TITLE + r"\s+", item)
    has_title = bool(m)
    words = item[m.end() :].split() if m else item.split()
    if not words or len(words) > 6 or not _WORD.match(words[0]) or not _WORD.match(words[-1]):
        return None
    if not all(_WORD.match(w) or w in _PARTICLES for w in words):
        return None
    if len(words) < 2 and not has_title:
        return (False, words[0]) if _WORD.match(words[0]) else None
    return has_title, " ".join(words)


# -------------------------------------------------------------------------------------------------------------- data
def data_files(folder: Path) -> Dict[str, Path]:
    """The files of the echr-dev ``folder`` the benchmark reads; :class:`EchrDataError` naming a missing one."""
    folder = Path(folder)
    files = {"entities": folder / ENTITIES, "judgments": folder / JUDGMENTS, "anonymizations": folder / ANONYMIZATIONS}
    for key, path in files.items():
        if not path.exists():
            raise EchrDataError(
                f"{path} is missing (the echr-dev folder needs {ENTITIES}, {JUDGMENTS}, {ANONYMIZATIONS}/)"
            )
    return files


def load_cases(folder: Path, limit: Optional[int] = None) -> Tuple[List[WikiActor], Dict[str, List[str]]]:
    """The cases as WikiActors records (``name`` = case id, background = its published judgment, the text as
    ``original_abstract``) and ``{case id: applicants' names}`` (:func:`applicants`; [] when none is named)."""
    files = data_files(folder)
    cases = json.loads(files["entities"].read_text(encoding="utf-8"))
    judgments = json.loads(files["judgments"].read_text(encoding="utf-8"))
    records, names = [], {}
    for i, case in enumerate(cases[:limit] if limit else cases):
        doc_id = case["doc_id"]
        if doc_id not in judgments:
            raise EchrDataError(f"case {doc_id} has no published judgment in {files['judgments']}")
        records.append(
            WikiActor(
                index=i, name=doc_id, background=judgments[doc_id], abstracts={ORIGINAL: case["text"]}, source=ENTITIES
            )
        )
        names[doc_id] = applicants(case["text"])
    return records, names


def reference_rows(folder: Path, records: Sequence[WikiActor], methods: Sequence[str] = METHODS) -> Dict[str, dict]:
    """The published reference anonymizations as benchmark systems: their TAE offsets ``[start, end, replacement]``
    applied to each text (overlaps merged, the first replacement kept), masks = their spans (masked share and TPI
    count every replaced span as removed, a generalization or surrogate too), ``published``: scored as given."""
    folder = Path(folder) / ANONYMIZATIONS
    originals = {r.name: r.original for r in records}
    out: Dict[str, dict] = {}
    for method in methods:
        path = folder / f"{method}.json"
        if not path.exists():
            continue
        spans = json.loads(path.read_text(encoding="utf-8"))
        masks, texts = {}, {}
        for doc_id, text in originals.items():
            regions = merge((int(s), int(e), "" if r is None else str(r)) for s, e, r in spans.get(doc_id, []))
            texts[doc_id] = apply(text, regions)
            masks[doc_id] = merge_offsets((s, e) for s, e, _ in regions)
        out[f"{method} (reference)"] = {"texts": texts, "masks": masks, "seconds": None, "published": True}
    return out


def give_applicant_knowledge(records: Sequence[WikiActor], names: Dict[str, List[str]], systems: Dict[str, dict]):
    """Every applicant's name masked everywhere for every system run here (in place; ``target_known``,
    ``target_chars_added``), as :func:`textanon_lab.benchmarks.harness.give_target_knowledge` does with one name;
    published rows stay as published, with ``target_chars_left``: applicant-name characters their masks left."""
    originals = {r.name: r.original for r in records}
    mentions = {
        doc_id: merge_offsets(m for name in names.get(doc_id, []) for m in find_target_mentions(text, name))
        for doc_id, text in originals.items()
    }
    for s in systems.values():
        if s.get("published"):
            s["target_known"] = "as published"
            s["target_chars_left"] = sum(
                covered_chars(list(s["masks"].get(d, [])) + found) - covered_chars(s["masks"].get(d, []))
                for d, found in mentions.items()
            )
            continue
        s["target_known"], s["target_chars_added"] = True, mask_mentions(s, mentions)


# ------------------------------------------------------------------------------------------------------------- index
def build_echr_index(folder: Path, distractors: Optional[Path], output: Path) -> dict:
    """The search profile's index: the 27 published judgments plus, as distractors, the public bodies of a
    WikiActors-format file (``distractors``; None: the judgments alone), written as ``{id, text, name}`` lines
    beside ``output`` and indexed by :func:`textanon.risk.search.builder.build_index`. Returns the index's meta."""
    judgments = json.loads(data_files(folder)["judgments"].read_text(encoding="utf-8"))
    output = Path(output)
    source = output.with_name(output.name + "_input.jsonl")
    source.parent.mkdir(parents=True, exist_ok=True)
    with source.open("w", encoding="utf-8") as f:
        for doc_id, text in judgments.items():
            f.write(json.dumps({"id": f"echr:{doc_id}", "text": text}, ensure_ascii=False) + "\n")
        for r in read_wikiactors(distractors) if distractors else []:
            if r.name and r.background:
                f.write(json.dumps({"id": f"wikiactors:{r.name}", "text": r.background, "name": r.name}) + "\n")
    return build_index(source, output, progress=False)


#: the textanon profiles the benchmark can run (search only with an index)
PROFILES = ("fast", "lm", "search", "strict")


def split_profiles(text: str) -> Tuple[List[str], List[str]]:
    """``(chosen, unknown)``: the comma-separated profiles of ``text``, and those of them not in :data:`PROFILES`."""
    chosen = [p.strip() for p in text.split(",") if p.strip()]
    return chosen, sorted(set(chosen) - set(PROFILES))


def prepare_index(
    folder: Path, index: Optional[Path], distractors: Optional[Path], log: Callable[[str], None] = print
) -> Optional[dict]:
    """Check the echr-dev ``folder`` (:func:`data_files`), then the search profile's ``index``: built there
    (:func:`build_echr_index`, ``log``ged) when ``distractors`` are given, otherwise an existing index. Returns the
    meta of the index built (None otherwise); :class:`EchrDataError` for a missing file or an ``index`` folder that
    is not a search index."""
    data_files(folder)
    if index is not None and distractors is not None:
        meta = build_echr_index(folder, distractors, index)
        log(f"Indexed {meta['documents']} documents -> {index}")
        return meta
    if index is not None and not (Path(index) / "meta.json").exists():
        raise EchrDataError(f"{index} is not a search index (no meta.json); give --distractors to build it")
    return None


# --------------------------------------------------------------------------------------------------------- benchmark
def _docs(records: Sequence[WikiActor], names: Dict[str, List[str]]) -> List[Tuple[str, str, Optional[str]]]:
    """``(id, text, target)``: the first applicant is the target a system is told (all are masked afterwards)."""
    return [(r.name, r.original, (names.get(r.name) or [None])[0]) for r in records]


def benchmark_echr(
    folder: Path,
    model: str = "en_textanon",
    index: Optional[str] = None,
    profiles: Sequence[str] = PROFILES,
    trir_seeds: Sequence[int] = (),
    tpi_lm: bool = False,
    limit: Optional[int] = None,
    index_meta: Optional[dict] = None,
) -> dict:
    """Every row on the echr-dev cases of ``folder``, scored: both judges, TPI, masked share, TRIR when
    ``trir_seeds`` are given. ``profiles``: the textanon profiles to run (search only with ``index``)."""
    t0 = time.perf_counter()
    records, names = load_cases(folder, limit)
    docs = _docs(records, names)
    systems: Dict[str, dict] = reference_rows(folder, records)
    presidio = run_isolated("presidio", docs)
    if "error" in presidio:
        raise RuntimeError(f"presidio failed: {presidio['error']}")
    systems[PRESIDIO] = presidio
    for row_label, name, needs_index, replacement in PROFILE_ROWS:
        if name in profiles and (index or not needs_index):
            systems[row_label] = run_profile_docs(docs, name, model, index if needs_index else None, replacement)
    give_applicant_knowledge(records, names, systems)
    rows = score(
        records,
        systems,
        ScoreSettings(
            trir_settings=TrirSettings(monitor=False),  # the per-epoch scores of every row are a log only: not here
            trir_seeds=tuple(trir_seeds) or (42,),
            skip_trir=not trir_seeds,
            tpi_lm=tpi_lm,
        ),
    )
    judges = add_judge_columns(records, systems, rows)
    base = systems[PRESIDIO]["seconds"]
    for row in rows:
        s = systems[row["system"]]
        row["target_chars_left"] = s.get("target_chars_left")
        row["x_presidio"] = round(base / s["seconds"], 2) if s.get("seconds") and base else None
    named = sum(1 for n in names.values() if n)
    return {
        "data": str(folder),
        "documents": len(records),
        "model": model,
        "index": index,
        "index_meta": index_meta,
        "applicants": {
            "cases_named": named,
            "cases_unnamed": len(records) - named,
            "names": sum(len(n) for n in names.values()),
            "rule": "textanon_lab.benchmarks.echr.applicants: the names in the introduction's 'lodged ... by' clause, "
            "'The first applicant, NAME,' and 'NAME (“the applicant”)'; the first is the target a system is told, "
            "all are masked for every system run here",
        },
        "trir": f"seeds {list(trir_seeds)} (the published attack settings, one attack trained per seed on the "
        f"{len(records)} judgments)"
        if trir_seeds
        else "not run (--trir-seeds): the attack is too slow on CPU",
        "rows": rows,
        "judges": judges,
        "wall_s": round(time.perf_counter() - t0, 1),
    }


def markdown(result: dict) -> str:
    """The table and what 27 cases can and cannot show."""
    n = result["documents"]
    lines = [
        "| system | BM25 judge % | MiniLM judge % | TRIR % | TPI (wordfreq) | masked share | applicant chars left "
        "| docs/s (× Presidio) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        trir, speed = trir_cell(r), speed_cell(r)
        left = cell(r.get("target_chars_left")) if r.get("target_known") == "as published" else "0 (known)"
        lines.append(
            f"| {r['system']} | {cell(r.get('bm25_reid'))} | {cell(r.get('dense_reid'))} | {trir} "
            f"| {cell(r.get('tpi'))} | {cell(r.get('masked_share'))} | {left} | {speed} |"
        )
    a = result["applicants"]
    point = 100 / n if n else 0
    lines += [
        "",
        f"{n} echr-dev court cases (TAB test split, {Path(result['data']).name}); the attacker's knowledge is the "
        f"{result['judges']['pool']} published judgments (each text is an excerpt of its own). Judges: % of the "
        "anonymized texts whose own judgment ranks first (BM25; MiniLM chunk embeddings). TPI: word-frequency "
        "information content kept (a replaced span counts as removed, a generalization or surrogate too). "
        "Reference rows (TAE) are scored as published; every system run here has the applicants' names masked "
        f"(named in {a['cases_named']} of {n} cases, {a['names']} names). TRIR: {result['trir']}. "
        f"Search index: {result['index'] or 'none'}.",
        "",
        f"**What {n} cases can show.** One case is {point:.1f} points of a judge's rate, so only large gaps mean "
        "anything: a row near 100 % leaves almost every case linkable to its judgment; rows a few cases apart are "
        f"not distinguishable, and no significance is claimed. {n} classes are an easy retrieval task (a random "
        f"guess is right {point:.1f} % of the time), the judgments are long and the texts are excerpts of them, so the "
        "rates are upper bounds for this attacker, not estimates for larger pools. The shipped entity model "
        "(assets/models/ner_court) is fine-tuned on these cases, so textanon's rows are not held-out numbers.",
    ]
    return "\n".join(lines) + "\n"


def plot(result: dict, path: Path) -> None:
    """TPI against both judges' re-identification rates (one panel each); reference rows grey, Presidio orange,
    textanon profiles blue."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result["rows"] if r.get("bm25_reid") is not None]
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), sharey=True)
    for ax, column, title in zip(axes, ("bm25_reid", "dense_reid"), ("BM25 judge", "MiniLM judge")):
        points: Dict[Tuple[float, float], List[str]] = {}
        for r in rows:
            reference, presidio = r["system"].endswith("(reference)"), r["system"] == PRESIDIO
            color = "tab:gray" if reference else "tab:orange" if presidio else "tab:blue"
            ax.scatter(r[column], r["tpi"], s=22, color=color)
            points.setdefault((r[column], r["tpi"]), []).append(r["system"].replace(" (reference)", ""))
        for (x, y), systems in points.items():  # rows on one point (the manual spans) share one label
            left = x > 60  # labels of points on the right run leftwards, inside the panel
            ax.annotate(
                " / ".join(systems),
                (x, y),
                fontsize=6,
                xytext=(-4 if left else 4, 3),
                textcoords="offset points",
                ha="right" if left else "left",
            )
        ax.set_xlim(-3, 103)
        for color, what in (("tab:gray", "reference (TAE, as published)"), ("tab:orange", PRESIDIO)):
            ax.scatter([], [], s=22, color=color, label=what)
        ax.scatter([], [], s=22, color="tab:blue", label="textanon profiles")
        ax.legend(fontsize=7, loc="lower left")
        ax.set_xlabel(f"{title}: % of cases whose judgment ranks first  →  less private")
        ax.set_title(f"{title} ({result['documents']} cases: one case = {100 / max(result['documents'], 1):.1f} pts)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("TPI, word-frequency IC  →  more useful")
    fig.suptitle("ECHR echr-dev: privacy (retrieval judges) vs utility", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(output: Path, result: dict) -> None:
    """``output`` (JSON with provenance), its table (``.md``) and plot (``.png``) beside it."""
    write_metrics(output, result)
    Path(output).with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    plot(result, Path(output).with_suffix(".png"))
