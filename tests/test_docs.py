"""The documentation: README.md (the front door) and docs/ (the MkDocs site, mkdocs.yml).

The site builds under ``--strict``, so a broken link, a missing anchor or a page left out of the navigation
fails; every repository path the documents write exists; the README fits a screen; no file cites the
shared folder beside the repository (the engine contract and the house style are vendored in docs/, the
games' specs in tests/fixtures/rules/); and the documents carry no tracker ids: history belongs in the git
log."""
from __future__ import annotations

import importlib.util
import itertools
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import need

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: The repository's top-level folders and root files: a word of a document that starts with one of these
#: folders (``games/web/views.py``), or is one of these files, names a path that must exist. URLs
#: (``/rules/livol/``), commands and files made at run time (``var/``, ``.venv/``) are not paths here.
FOLDERS = {"cardleague", "engine", "games", "league", "clients", "templates", "static", "locale", "docs",
           "tests", "docker", ".ci"}
NOT_FOLDERS = {"var", "staticfiles", "site", "test-results", "node_modules", "__pycache__"}
ROOT_FILES = {"Makefile", "pyproject.toml", "manage.py", "mypy.ini", "mkdocs.yml", "README.md", ".gitignore",
              ".dockerignore"}

FENCED = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")
LINE_SUFFIX = re.compile(r":\d+(?:[-–]\d+)?$")
BRACES = re.compile(r"\{([^{}/]*,[^{}/]*)\}")


def _folders() -> set[str]:
    here = {p.name for p in ROOT.iterdir()
            if p.is_dir() and not p.name.startswith(".") and not p.name.endswith(".egg-info")}
    return FOLDERS | (here - NOT_FOLDERS)


def _words(text: str) -> Iterator[tuple[str, str | None]]:
    """Every word written in backticks or in a fenced block, with the word before it (``-m`` marks a
    module)."""
    spans = [block.group(0) for block in FENCED.finditer(text)]
    spans += INLINE.findall(FENCED.sub("", text))
    for span in spans:
        words = span.split()
        yield from zip(words, [None, *words])


def _expand(word: str) -> list[str]:
    """``locale/{lv,lt}/x`` as ``locale/lv/x`` and ``locale/lt/x``."""
    found = BRACES.search(word)
    if not found:
        return [word]
    return list(itertools.chain.from_iterable(
        _expand(word[:found.start()] + choice + word[found.end():]) for choice in found.group(1).split(",")))


def _exists(path: str) -> bool:
    """A path, or a pattern with ``<placeholder>`` or ``*``, that names something in the tree."""
    pattern = re.sub(r"<[^<>/]+>", "*", path)
    if "*" in pattern or "?" in pattern:
        return any(ROOT.glob(pattern.rstrip("/")))
    return (ROOT / pattern).exists()


def _module_exists(module: str) -> bool:
    base = ROOT.joinpath(*module.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def cited_paths(document: Path) -> Iterator[str]:
    """The repository paths (and ``python -m`` modules) a document names."""
    folders = _folders()
    text = document.read_text(encoding="utf-8")
    links = LINK.findall(text) if document.parent == ROOT else []  # docs/ links: mkdocs checks them
    for word, before in [*_words(text), *((link, None) for link in links)]:
        word = word.strip("\"'()[],;.!?*").removesuffix("\\")
        if "://" in word or word.startswith(("/", "-")):
            continue
        if before == "-m" and word.split(".")[0] in folders:
            if not _module_exists(word):
                yield f"python -m {word}"
            continue
        word = LINE_SUFFIX.sub("", word)
        if word in ROOT_FILES or ("/" in word and word.split("/")[0] in folders):
            yield from (path for path in _expand(word) if not _exists(path))


def test_the_docs_build_strictly(tmp_path):
    need(importlib.util.find_spec("mkdocs") is not None, "mkdocs is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_path_the_docs_cite_exists():
    missing = [f"{document.relative_to(ROOT)}: {path}" for document in DOCUMENTS
               for path in dict.fromkeys(cited_paths(document))]
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)


def test_the_path_check_tells_paths_from_other_words(tmp_path):
    # given a document with real paths, missing ones, URLs, commands and run-time files
    document = tmp_path / "page.md"
    document.write_text(
        "`games/models.py` `engine/livol.py:12` `tests/bench/` `/rules/livol/` `var/site/` `GET /api/x`\n"
        "`engine/<name>.py` `games/no_such_module.py`, `python -m engine.verify` `python -m engine.nothing`\n"
        "```sh\nSECRET_KEY=… docker compose -f docker/compose.yaml up\ncat league/nowhere.txt\n```\n",
        encoding="utf-8")
    # when its paths are checked
    missing = list(cited_paths(document))
    # then only the missing ones are named
    assert missing == ["league/nowhere.txt", "games/no_such_module.py", "python -m engine.nothing"]


def test_the_readme_fits_a_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: move the rest to docs/"


#: The shared folder beside the repository, named in any of the ways it was cited.
SHARED = re.compile(r"\.\./shared\b|(?<![\w.-])shared/(?:rules|seeds|reviews|hooks|ENGINE|STYLE|ARCHITECTURE)")
#: Where citing it is the point: the test that compares the vendored specs with their originals, and the
#: vendored specs' own README, which says how to copy them again.
MAY_CITE_SHARED = {"tests/fixtures/rules/README.md"}
MAY_CITE_SHARED_NAMES = {"test_views_rules.py"}
SKIPPED_FOLDERS = {".git", ".venv", "var", "staticfiles", "node_modules", "__pycache__", ".pytest_cache",
                   ".mypy_cache", ".hypothesis"}
CHECKED_SUFFIXES = {".py", ".md", ".html", ".txt", ".js", ".css", ".toml", ".yml", ".yaml", ".ini", ".cfg"}


def _checked_files() -> Iterator[Path]:
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if name not in SKIPPED_FOLDERS and not name.endswith(".egg-info")]
        for name in files:
            path = Path(folder, name)
            if path.suffix in CHECKED_SUFFIXES or name in {"Makefile", "Dockerfile", "run"}:
                yield path


def test_nothing_cites_the_shared_folder():
    citing = []
    for path in _checked_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative in MAY_CITE_SHARED or (relative.startswith("tests/") and path.name in MAY_CITE_SHARED_NAMES):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if SHARED.search(line):
                citing.append(f"{relative}:{number}: {line.strip()}")
    assert not citing, ("cite docs/engine-contract.md, docs/style.md or tests/fixtures/rules/<game>.md "
                        "instead:\n" + "\n".join(citing))


#: The ids of a tracker's items: "issue 23", "issue 22 item 2", "L-5", "M8", "H2". A game's rule ids
#: (L6, F13, K5, I3, C1) are not these: the rules pages and refusals name them.
TRACKER_ID = re.compile(r"\b(?i:issues?) #?\d+|\bL-\d+\b|\b[MH]\d+\b")


#: In a template only "issue N" is looked for: an SVG path's "M12 2v18" is not a tracker's id.
TRACKER_ISSUE = re.compile(r"\b(?i:issues?) #?\d+")


def _tracker_ids(path: Path, pattern: re.Pattern[str]) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{number}: {hit.group(0)}"
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            for hit in pattern.finditer(line)]


def test_no_tracker_ids_in_docs():
    found = [hit for document in DOCUMENTS for hit in _tracker_ids(document, TRACKER_ID)]
    assert not found, "tracker ids (history belongs in the git log):\n" + "\n".join(found)


def test_no_tracker_ids_in_the_code():
    this = Path(__file__)
    found = [hit for path in _checked_files() if path != this
             for hit in _tracker_ids(path, TRACKER_ID if path.suffix == ".py" else TRACKER_ISSUE)]
    assert not found, "tracker ids (history belongs in the git log):\n" + "\n".join(found)


def test_the_api_page_lists_every_error_code_from_the_one_table():
    from games import error_codes

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert error_codes.markdown() in page, "docs/api.md: paste the table `manage.py error_codes` prints"
