"""Run every reliability case through the ``anonymize`` command line and collect the figures.

Each case runs ``python -m textanon_lab.testing anonymize INPUT -o OUTPUT --model PIPELINE ...`` (the ordinary
command line, logging at DEBUG level, fault plugins importable) in its own scratch folder and process
group, with a time limit. Measured per case: see :mod:`.checks`. ``pass`` means: no record lost or added,
no record of the wrong kind, output in input order, the expected exit status, no PII in the logs, the
warnings or the error records, no direct identifier or protected name left whole in the output.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from textanon_eval.provenance import provenance, write_metrics
from textanon_lab.reliability import checks
from textanon_lab.reliability.adversary import ADVERSARY_CASES
from textanon_lab.reliability.files import SCENARIOS, run_scenario
from textanon_lab.reliability.inputs import (
    INPUT_CASES,
    CaseInput,
    big_document,
    fault_records,
    huge_token_200k,
    write_records,
)
from textanon_lab.reliability.pipelines import base_pipeline_path, fault_pipeline
from textanon_lab.testing.faults import markers as fired_markers

DEFAULT_TIMEOUT_S = 300


@dataclass
class Case:
    """One run: an input builder, the pipeline (``None``: the normal one, else a fault kind) and CLI options."""

    name: str
    group: str  # "input" | "fault"
    build: Callable[[Path, int], CaseInput]
    fault: Optional[str] = None
    args: List[str] = field(default_factory=list)
    output: Optional[str] = None  # e.g. "/dev/full"; default: a file in the case folder
    expect_exit_zero: bool = True
    timeout_s: int = DEFAULT_TIMEOUT_S
    description: str = ""


def _faulty_input(trigger_at: Optional[int] = None, n: int = 8, others: Optional[bool] = False):
    """Builder of ``n`` PII records; the one at ``trigger_at`` must come out as an error record (fail closed:
    not released), the others as anonymized records (``others = None``: either)."""

    def build(folder: Path, seed: int) -> CaseInput:
        data = write_records(folder / "records.jsonl", fault_records(seed, n, trigger_at))
        for i, exp in enumerate(data.expected):
            exp.error = True if i == trigger_at else others
        return data

    return build


def cases(big: bool = False) -> List[Case]:
    """Every case of the suite, in the order they run (``big``: add the ~1 MB document)."""
    out = [
        Case(name, "input", fn, description=(fn.__doc__ or "").strip().split("\n")[0])
        for name, fn in INPUT_CASES.items()
    ]
    out += [
        Case(name, "adversary", fn, description=(fn.__doc__ or "").strip().split("\n")[0])
        for name, fn in ADVERSARY_CASES.items()
    ]
    if big:  # each ~10-20 min on 2 CPUs when the text is scored by the language model
        out.append(
            Case(
                "huge_token_200k",
                "input",
                huge_token_200k,
                timeout_s=3600,
                description=(huge_token_200k.__doc__ or "").strip(),
            )
        )
        out.append(
            Case(
                "big_document_1mb",
                "input",
                big_document,
                timeout_s=3600,
                description="A ~1 MB record (over spaCy's max_length) between two small records",
            )
        )
    out += [
        Case(
            "lm_failure",
            "fault",
            _faulty_input(),
            "lm_failure",
            description="The language model raises on every document",
        ),
        Case("solver_timeout", "fault", _faulty_input(), "solver_timeout", description="CP-SAT time limit of 1e-9 s"),
        Case(
            "component_exception",
            "fault",
            _faulty_input(trigger_at=3),
            "component_exception",
            description="A component raises on the 4th document of a batch of 8",
        ),
        Case(
            "killed_worker",
            "fault",
            _faulty_input(trigger_at=3, others=None),
            "killed_worker",
            args=["--n-process", "2"],
            timeout_s=120,
            description="--n-process 2; a worker is SIGKILLed on the 4th document (others: result or error)",
        ),
        Case(
            "full_disk",
            "fault",
            _faulty_input(),
            None,
            output="/dev/full",
            expect_exit_zero=False,
            description="--output /dev/full: every write fails (a non-zero exit is required)",
        ),
        Case(
            "llm_garbage_in_pipeline",
            "fault",
            _faulty_input(),
            "llm_garbage_in_pipeline",
            description="LLM anonymizer before the optimizer; the LLM replies garbage",
        ),
    ]
    for mode, what in [
        ("empty", "an empty reply"),
        ("garbage", "garbage"),
        ("invented", "only invented strings"),
        ("obey_injection", "'output []' (a prompt injection obeyed)"),
        ("truncated", "a list cut at the token limit"),
        ("label_dict", "a label dict"),
    ]:
        out.append(
            Case(
                f"llm_alone_{mode}",
                "fault",
                _faulty_input(),
                f"llm_alone_{mode}",
                description=f"LLM anonymizer alone (as docs/llm.md shows); the LLM replies {what}",
            )
        )
    return out


def _env(markers: Path) -> Dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false",
            "PYTHONUNBUFFERED": "1",
            "TEXTANON_FAULT_MARKERS": str(markers),
        }
    )
    return env


def run_case(case: Case, base: Path, workdir: Path, seed: int) -> dict:
    """Build the case's input and pipeline in ``workdir/<case>``, run the command line, measure."""
    folder = workdir / case.name
    folder.mkdir(parents=True, exist_ok=True)
    data = case.build(folder, seed)
    pipeline = fault_pipeline(case.fault, base, folder / "pipeline") if case.fault else base
    output = Path(case.output) if case.output else folder / "output.jsonl"
    marker_dir = folder / "fault_markers"
    cmd = (
        [
            sys.executable,
            "-m",
            "textanon_lab.testing",
            "anonymize",
            str(data.path),
            "-o",
            str(output),
            "--model",
            str(pipeline),
        ]
        + (["--target", data.target] if data.target else [])
        + case.args
    )
    start = time.perf_counter()
    with open(folder / "stdout.txt", "wb") as out, open(folder / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(cmd, cwd=folder, stdout=out, stderr=err, env=_env(marker_dir), start_new_session=True)
        try:
            code, timed_out = proc.wait(timeout=case.timeout_s), False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # our own process group: the CLI and its workers
            code, timed_out = proc.wait(), True
    seconds = time.perf_counter() - start
    checked = case.output is None
    rows, unreadable = checks.read_output(output) if checked else ([], 0)
    log = "\n".join((folder / f).read_text("utf8", errors="replace") for f in ("stdout.txt", "stderr.txt"))
    log += "\n" + "\n".join(p.read_text("utf8", errors="replace") for p in folder.glob("*.log"))
    pii = checks.all_pii(data.expected)
    sources = _sources(data)
    left = checks.surviving(data.expected, rows, sources)
    names_left = {k: left["full"].pop(k) for k in checks.NAME_KINDS if k in left["full"]}
    result = {
        "case": case.name,
        "group": case.group,
        "description": case.description,
        "command": _display(cmd, workdir),
        **checks.count(data.expected, rows, unreadable, checked),
        "exit_code": code,
        "expected_exit": "zero" if case.expect_exit_zero else "non-zero",
        "timed_out": timed_out,
        "seconds": round(seconds, 1),
        "pii_strings_checked": len(pii),
        "pii_in_logs": dict(checks.pii_found(log, pii)),
        "pii_in_warnings_or_errors": dict(checks.pii_found(checks.messages(rows), pii)),
        "surviving_direct_identifiers": dict(left["full"]),
        "partially_surviving_direct_identifiers": dict(left["partial"]),
        "surviving_protected_names": names_left,
        "warnings": dict(checks.warning_kinds(rows)),
        "log": checks.log_summary(log),
        "faults_fired": dict(Counter(fired_markers(marker_dir))),
    }
    result["pass"] = passed(result)
    return result


def _sources(data: CaseInput) -> Dict[str, str]:
    """Input text per record id (for the identifier-piece check); unreadable lines give nothing."""
    out = {}
    if data.path.suffix == ".txt":
        return {e.id: data.path.read_bytes().decode("utf8", errors="replace") for e in data.expected if e.id}
    for raw in data.path.read_bytes().splitlines():
        try:
            obj = json.loads(raw.decode("utf8", errors="replace").lstrip("\ufeff"))
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("text"), str):
            out[str(obj.get("id"))] = obj["text"]
    return out


def _display(cmd: List[str], workdir: Path) -> str:
    return " ".join(["python" if i == 0 else c.replace(str(workdir), "$WORKDIR") for i, c in enumerate(cmd)])


def exit_ok(r: dict) -> bool:
    """The exit status is the expected one (a time-out never is)."""
    if r["timed_out"]:
        return False
    return (r["exit_code"] == 0) if r["expected_exit"] == "zero" else (r["exit_code"] != 0)


def passed(r: dict) -> bool:
    """The case's pass criteria (see the module docstring)."""
    records_ok = r["records_out"] is None or (
        r["records_lost"] == 0 and r["extra_records"] == 0 and r["wrong_kind_records"] == 0 and r["in_order"]
    )
    leaks = (
        sum(r["pii_in_logs"].values())
        + sum(r["pii_in_warnings_or_errors"].values())
        + sum(r["surviving_direct_identifiers"].values())
        + sum(r["surviving_protected_names"].values())
    )
    return bool(exit_ok(r) and records_ok and leaks == 0)


def summarize(results: List[dict]) -> dict:
    """Totals over the cases."""

    def total(key: str) -> int:
        return sum(checks.optional_int(r[key]) for r in results)

    def total_counts(key: str) -> Dict[str, int]:
        out: Counter = Counter()
        for r in results:
            out.update(r[key])
        return dict(sorted(out.items()))

    return {
        "cases": len(results),
        "cases_passed": sum(1 for r in results if r["pass"]),
        "cases_failed": [r["case"] for r in results if not r["pass"]],
        "records_in": total("records_in"),
        "records_out": total("records_out"),
        "error_records": total("error_records"),
        "records_lost": total("records_lost"),
        "extra_records": total("extra_records"),
        "wrong_kind_records": total("wrong_kind_records"),
        "cases_out_of_order": [r["case"] for r in results if r["in_order"] is False],
        "cases_unexpected_exit": [r["case"] for r in results if not exit_ok(r)],
        "cases_timed_out": [r["case"] for r in results if r["timed_out"]],
        "cases_with_traceback": [r["case"] for r in results if r["log"]["traceback"]],
        "pii_in_logs": sum(sum(r["pii_in_logs"].values()) for r in results),
        "pii_in_warnings_or_errors": sum(sum(r["pii_in_warnings_or_errors"].values()) for r in results),
        "surviving_direct_identifiers": sum(sum(r["surviving_direct_identifiers"].values()) for r in results),
        "surviving_direct_identifiers_by_kind": total_counts("surviving_direct_identifiers"),
        "partially_surviving_direct_identifiers": sum(
            sum(r["partially_surviving_direct_identifiers"].values()) for r in results
        ),
        "partially_surviving_by_kind": total_counts("partially_surviving_direct_identifiers"),
        "surviving_protected_names": total_counts("surviving_protected_names"),
    }


def run_info(started: float) -> dict:
    """Git state and timing of this run (the command and machine come from ``evaluation.provenance``)."""
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {
        "git_commit": commit,
        "git_dirty": dirty,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "seconds": round(time.time() - started, 1),
    }


def _git(*args: str) -> Optional[str]:
    try:
        res = subprocess.run(
            ["git", *args], capture_output=True, text=True, timeout=30, cwd=Path(__file__).resolve().parent
        )
        return res.stdout.strip() if res.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def run_suite(
    model: str,
    workdir: Path,
    seed: int = 0,
    big: bool = False,
    only: Optional[List[str]] = None,
    progress: Callable[[str], None] = lambda _: None,
) -> List[dict]:
    """Run the (selected) cases in order; one result dict per case."""
    base = base_pipeline_path(model)
    selected = [c for c in cases(big) if not only or c.name in only]
    unknown = set(only or []) - {c.name for c in cases(True)} - set(SCENARIOS)
    if unknown:
        raise ValueError(f"unknown case(s): {sorted(unknown)}")
    results = []
    for case in selected:
        progress(case.name)
        results.append(run_case(case, base, workdir, seed))
    return results


def run_file_scenarios(
    model: str, workdir: Path, only: Optional[List[str]] = None, progress: Callable[[str], None] = lambda _: None
) -> List[dict]:
    """The file and mapping scenarios (:mod:`.files`) selected by ``only`` (all when ``only`` is empty)."""
    base = base_pipeline_path(model)
    results = []
    for name in SCENARIOS:
        if not only or name in only:
            progress(name)
            results.append(run_scenario(name, base, workdir))
    return results


def run_report(
    output: Path,
    markdown_out: Optional[Path] = None,
    model: str = "en_textanon",
    seed: int = 0,
    big: bool = False,
    only: Optional[List[str]] = None,
    workdir: Optional[Path] = None,
    progress: Callable[[str], None] = lambda _: None,
) -> Tuple[dict, Path]:
    """``reliability``: :func:`run_suite` (inputs, outputs and logs in ``workdir``, else a temporary folder), the
    report (summary, cases, settings, run) written to ``output`` (JSON with provenance) and its :func:`markdown`
    to ``markdown_out`` (default: ``output`` with ``.md``). Returns (report, markdown path)."""

    started = time.time()
    with tempfile.TemporaryDirectory(prefix="textanon-reliability-") as tmp:
        folder = workdir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        results = run_suite(model, folder, seed=seed, big=big, only=only, progress=progress)
        files = run_file_scenarios(model, folder, only, progress=progress)
    summary = summarize(results)
    summary.update(
        {
            "file_scenarios": len(files),
            "file_scenarios_passed": sum(1 for r in files if r["pass"]),
            "file_scenarios_failed": [r["case"] for r in files if not r["pass"]],
        }
    )
    report = {
        "summary": summary,
        "cases": results,
        "file_scenarios": files,
        "settings": {"model": model, "seed": seed, "big_document": big, "only": only or None},
        "run": run_info(started),
    }
    write_metrics(output, report)
    report["provenance"] = provenance()
    md = markdown_out or output.with_suffix(".md")
    md.write_text(markdown(report), encoding="utf8")
    return report, md


def markdown(report: dict) -> str:
    """A short table of the report."""
    s = report["summary"]
    lines = [
        "# Reliability suite",
        "",
        f"`{report['provenance']['command']}` — {s['cases_passed']}/{s['cases']} cases pass; "
        f"{s['records_lost']} records lost, {s['pii_in_logs']} PII strings in logs, "
        f"{s['pii_in_warnings_or_errors']} in warnings/errors, {s['surviving_direct_identifiers']} direct identifiers "
        f"and {sum(s['surviving_protected_names'].values())} protected names surviving "
        f"({s['partially_surviving_direct_identifiers']} identifiers partly).",
        "",
        "| case | in | out | errors | lost | in order | exit | PII in logs | ids left (partly) | names left | pass |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["cases"]:
        exit_code = "timeout" if r["timed_out"] else r["exit_code"]
        lines.append(
            f"| {r['case']} | {r['records_in']} | {_na(r['records_out'])} | {_na(r['error_records'])} "
            f"| {_na(r['records_lost'])} | {_na(r['in_order'])} | {exit_code} "
            f"| {sum(r['pii_in_logs'].values()) + sum(r['pii_in_warnings_or_errors'].values())} "
            f"| {sum(r['surviving_direct_identifiers'].values())} "
            f"({sum(r['partially_surviving_direct_identifiers'].values())}) "
            f"| {sum(r['surviving_protected_names'].values())} | {'yes' if r['pass'] else '**no**'} |"
        )
    if report.get("file_scenarios"):
        lines += [
            "",
            f"## Files and mappings: {s['file_scenarios_passed']}/{s['file_scenarios']} scenarios pass",
            "",
            "| scenario | checks (failed in bold) | exit codes | pass |",
            "|---|---|---|---|",
        ]
        for r in report["file_scenarios"]:
            checks_md = ", ".join(name if ok else f"**{name}**" for name, ok in r["checks"].items())
            checks_md += f" (error: {r['error']})" if r["error"] else ""
            codes = " ".join(map(str, r["exit_codes"]))
            lines.append(f"| {r['case']} | {checks_md} | {codes} | {'yes' if r['pass'] else '**no**'} |")
    machine = report["provenance"]["machine"]
    lines += [
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores, GPU {machine['gpu'] or 'none'}; "
        f"{report['run']['seconds']} s.",
        "",
    ]
    return "\n".join(lines)


def _na(value) -> str:
    return "-" if value is None else str(value)
