"""The import architecture (docs/architecture.md): the import-linter contracts of pyproject.toml hold (as
`lint-imports` checks them in `make test`), no module imports a private name of another module, the bottom
modules import nothing from textanon, and no import cycle joins any modules."""

import ast
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "components" / "textanon"
#: shared constants and small helpers at the bottom of the house: they import nothing from textanon
BOTTOM = ("textanon.costs", "textanon.regions", "textanon.render.user_key")
#: import cycles not broken yet (issue 29): none left; a new cycle fails
KNOWN_CYCLES: tuple = ()


def test_import_contracts_hold():
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def _module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_module(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def private_imports(package: Path = PACKAGE):
    """(importer, imported module, name) for every ``from X import _name`` of a textanon module's private name
    from another module, inside functions too."""
    found = []
    for path in sorted(package.rglob("*.py")):
        module = _module_name(path, package)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = _imported_module(module, path.name == "__init__.py", node)
            if not source.startswith("textanon"):
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and source != module:
                    found.append((module, source, alias.name))
    return found


def test_no_private_name_is_imported_from_another_module():
    assert private_imports() == []


def test_private_import_check_finds_one(tmp_path):
    """The check above sees a private import (relative, inside a function) when there is one."""
    package = tmp_path / "textanon"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def _helper():\n    return 1\n")
    (package / "b.py").write_text("def f():\n    from .a import _helper\n\n    return _helper()\n")
    assert private_imports(package) == [("textanon.b", "textanon.a", "_helper")]


def _cycles(graph) -> list:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
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


def test_no_new_import_cycle():
    graph = grimp.build_graph("textanon", "textanon_eval", "textanon_lab", cache_dir=None)
    for cycle in _cycles(graph):
        assert any(cycle <= known for known in KNOWN_CYCLES), f"import cycle: {sorted(cycle)}"


def test_cycle_check_finds_one():
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert _cycles(graph) == [{"p.a", "p.b"}]


def test_the_bottom_imports_nothing_from_textanon():
    graph = grimp.build_graph("textanon", "textanon_eval", "textanon_lab", cache_dir=None)
    for module in BOTTOM:
        assert graph.find_modules_directly_imported_by(module) == set(), module


def test_moved_names_keep_their_public_import_paths():
    """Names moved to the bottom (issue 29) are the same objects under their old public paths."""
    from textanon import costs, regions
    from textanon.pipes import lm_risk, optimizer
    from textanon.render import mapping, masking, user_key
    from textanon.risk.language_models import base, engine
    from textanon.risk.search import base as search_base

    assert optimizer.IC_SCALE == costs.IC_SCALE == 1000 and optimizer.DEFAULT_IC == costs.DEFAULT_IC == 10.0
    assert lm_risk.scored_ic is costs.scored_ic
    assert masking.merge is regions.merge and masking.Mask is regions.Mask
    for name in ("KEY_ENV", "MIN_KEY_CHARS", "MappingError", "check_key", "read_key"):
        assert getattr(mapping, name) is getattr(user_key, name), name
    assert engine.ScoringEngine is base.ScoringEngine
    assert callable(search_base.memo_count)
