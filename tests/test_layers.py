"""One-way layers: the import contracts in pyproject.toml ([tool.importlinter]) hold — the project over the
league over games over the engine, each app floor by floor, the engine free of Django, the store not
publishing, services importing neither the edge nor the tasks, selectors no service — and a planted
upward import breaks them. Work goes to the broker by task name through games.dispatch alone. And the
tree passes ruff ([tool.ruff]: errors, likely bugs, and the banned imports of the tasks modules)."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cardleague", "engine", "games", "league")
BIN = Path(sys.executable).parent


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=cwd, capture_output=True, text=True,
                          timeout=300, check=False)


def production_modules():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def test_the_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize("module, planted, broken", [
    # the store reaching up to the pages, from inside a function
    ("games/store.py", "\n\ndef _planted():\n    from games.web import views  # noqa\n",
     "games, floor by floor"),
    # a service waking a task by importing it
    ("league/services/running.py", "\nfrom league import tasks  # noqa\n",
     "Services do not import the edge (views, API, SSE views) nor the tasks"),
    # the models reaching up to a writer
    ("league/models.py", "\n\ndef _planted():\n    from league.services import rounds  # noqa\n",
     "league, floor by floor"),
])
def test_an_upward_import_breaks_the_contracts(tmp_path, module, planted, broken):
    # given a copy of the tree (the real one is left alone) with one upward import planted in it
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with (tmp_path / module).open("a") as file:
        file.write(planted)
    # when the contracts are checked there
    done = lint_imports(tmp_path)
    # then they fail, naming the contract the import breaks
    assert done.returncode != 0, done.stdout
    assert f"{broken}" in " ".join(done.stdout.split()), done.stdout
    assert "BROKEN" in done.stdout


HANDING_ON = {"delay", "apply_async", "send_task"}


def test_work_goes_to_the_broker_through_the_dispatcher_only():
    # ruff's banned-api sees imports, not calls: every .delay/.apply_async/.send_task outside games/dispatch.py
    found = []
    for path in production_modules():
        if path == ROOT / "games" / "dispatch.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in HANDING_ON:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.func.attr}(")
    assert not found, "hand work on by name through games.dispatch:\n" + "\n".join(found)


def _task_names() -> set[str]:
    names = set()
    for path in production_modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "shared_task":
                names |= {k.value.value for k in node.keywords if k.arg == "name"}
    return names


def test_every_task_handed_on_by_name_exists():
    # a misspelt name would only fail where a broker is asked: each name given to the dispatcher is a task's
    known, handed = _task_names(), []
    for path in production_modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and getattr(node.func.value, "id", None) == "dispatch"
                    and node.func.attr in {"start", "hand_on", "send", "send_on_commit"}):
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant), f"{path.relative_to(ROOT)}:{node.lineno}: name the task"
                handed.append((f"{path.relative_to(ROOT)}:{node.lineno}", first.value))
    assert handed and {"games.bots_play", "league.table_play"} <= known
    assert [(where, name) for where, name in handed if name not in known] == []


def test_the_reference_client_stands_apart():
    # clients/python/ is for outside bots: it imports nothing of the site (the pure engine's bots, if at hand)
    tree = ast.parse((ROOT / "clients" / "python" / "cardleague_client.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"django", "cardleague", "games", "league"}


def test_the_tree_passes_ruff():
    done = subprocess.run([str(BIN / "ruff"), "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
