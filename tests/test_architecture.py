"""The architecture (docs/architecture.md), asserted: the import-linter contracts of pyproject.toml hold (as
`lint-imports` checks them in `make test`), no import cycle joins any modules of the three packages, the bottom
imports nothing from textanon, no private name crosses modules, imports sit at module top except optional ones, no
long parameter list or long command body, and few top-level modules. Each check is also shown to find a violation."""

from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

from textanon_lab import architecture
from textanon_lab.architecture import (
    Finding,
    cycles,
    floors,
    function_imports,
    long_commands,
    long_parameter_lists,
    private_imports,
    source_files,
    upward_imports,
)

ROOT = Path(__file__).resolve().parents[1]
#: shared constants and small helpers at the bottom of the house: they import nothing from textanon
BOTTOM = (
    "textanon.costs",
    "textanon.regions",
    "textanon.labels",
    "textanon.about",
    "textanon.loading",
    "textanon.doc_text",
    "textanon.render.user_key",
)


@pytest.fixture(scope="module")
def files():
    return source_files(ROOT)


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*architecture.PACKAGES, cache_dir=None)


def test_import_contracts_hold():
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_import_cycle(graph):
    assert cycles(graph) == []


def test_no_import_runs_up_a_floor(graph):
    layers = floors(ROOT / "pyproject.toml")
    assert layers[0] == ["textanon.cli"] and layers[-1][0] == "textanon.costs"
    assert upward_imports(graph, layers) == []


def test_the_bottom_imports_nothing_from_textanon(graph):
    for module in BOTTOM:
        assert graph.find_modules_directly_imported_by(module) == set(), module


def test_few_top_level_modules(files):
    top = [m for m in files if m.count(".") == 1 and m.startswith("textanon.") and files[m].name != "__init__.py"]
    assert len(top) <= 12, top


def test_no_private_name_is_imported_from_another_module(files):
    assert private_imports(files, ROOT) == []


def test_imports_inside_functions_only_for_optional_dependencies(files):
    assert [str(f) for f in function_imports(files, ROOT)] == []


def test_no_long_parameter_list(files):
    assert [str(f) for f in long_parameter_lists(files, ROOT)] == []


def test_command_bodies_are_short(files):
    assert [str(f) for f in long_commands(files, ROOT)] == []


# --- each check finds a violation when there is one -------------------------------------------------------------


def _package(tmp_path, sources):
    base = tmp_path / "components" / "textanon"
    base.mkdir(parents=True)
    (base / "__init__.py").write_text("")
    for name, text in sources.items():
        (base / f"{name}.py").write_text(text)
    return {f"textanon.{name}": base / f"{name}.py" for name in sources}


def test_the_checks_find_violations(tmp_path):
    params = ", ".join(f"p{i}" for i in range(11))
    command = "\n".join(["@app.command('x')", "def cmd():", '    """Doc."""'] + ["    y = 1"] * 31) + "\n"
    files = _package(
        tmp_path,
        {
            "a": "def _helper():\n    return 1\n",
            "b": "def f():\n    from textanon.a import _helper\n    import json\n\n    return _helper(), json\n",
            "c": f"def g({params}):\n    return 1\n",
            "cli": command,
            "d": "def h():\n    try:\n        import json\n    except ImportError:\n        return None\n"
            "    import torch\n\n    return json, torch\n",
        },
    )
    assert [(f.path.split("/")[-1], f.line) for f in function_imports(files, tmp_path)] == [("b.py", 2), ("b.py", 3)]
    assert private_imports(files, tmp_path) == [Finding("components/textanon/b.py", 2, "_helper of textanon.a")]
    assert [f.what for f in long_parameter_lists(files, tmp_path)] == ["g: 11 parameters"]
    files["textanon.cli.x"] = files.pop("textanon.cli")
    assert [f.what for f in long_commands(files, tmp_path)] == ["cmd: 31 lines"]


def test_cycle_and_floor_checks_find_one():
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert cycles(graph) == [{"p.a", "p.b"}]
    assert upward_imports(graph, [["p.c"], ["p.a"], ["p.b"]]) == [("p.b", "p.a")]


def test_moved_names_keep_their_public_import_paths():
    """Names moved to the bottom (issue 29) are the same objects under their old public paths."""
    from textanon import costs, regions
    from textanon.pipes import lm_risk, optimizer
    from textanon.render import mapping, masking, user_key
    from textanon.render.operators import keys
    from textanon.risk.language_models import base, engine
    from textanon.risk.search import base as search_base

    assert optimizer.IC_SCALE == costs.IC_SCALE == 1000 and optimizer.DEFAULT_IC == costs.DEFAULT_IC == 10.0
    assert lm_risk.scored_ic is costs.scored_ic and lm_risk.entity_log10_probs is costs.entity_log10_probs
    assert masking.merge is regions.merge and masking.Mask is regions.Mask
    for name in ("KEY_ENV", "MIN_KEY_CHARS", "MappingError", "check_key", "read_key"):
        assert getattr(mapping, name) is getattr(user_key, name), name
    assert keys.derive is user_key.derive
    assert engine.ScoringEngine is base.ScoringEngine
    assert callable(search_base.memo_count)
