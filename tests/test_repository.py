"""Issue 7 §8: the repository stands on its own: no reference to files outside it (design notes,
``../shared`` paths) and no path of one machine, in any tracked text file."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile("|".join([r"DESIGN\.md", r"\.\./shared", r"(?<![\w.])/work/", r"/root/", r"/home/[a-z]"]))


def test_no_tracked_file_refers_outside_the_repository_or_to_a_machine_path():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    hits = []
    for name in filter(None, files):
        path = ROOT / name.decode()
        if path == Path(__file__).resolve() or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:4096]:  # binary
            continue
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{name.decode()}:{n}: {line.strip()[:120]}")
    assert hits == []


# --- the README and the docs/ pages (issue: "the README is one page; every page it links exists") ---

README = ROOT / "README.md"
README_MAX_BYTES = 20_000
"""The README stays one page: under 20 KB; the reference lives in ``docs/``."""

_ANCHOR_TAG = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")


def heading_slug(text: str) -> str:
    """GitHub's anchor for a heading's text: lower case, every character but letters, digits,
    ``_``, ``-`` and spaces dropped, spaces turned into ``-`` (``The auditor's dossier`` ->
    ``the-auditors-dossier``)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _parse(path: Path) -> list:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").parse(path.read_text(encoding="utf-8"))


def anchors(path: Path) -> set[str]:
    """The anchors a Markdown file defines: its headings' slugs (a repeated slug gets ``-1``,
    ``-2``, ... as on GitHub) and every ``<a id=...>`` / ``<a name=...>``."""
    tokens = _parse(path)
    found: set[str] = set(_ANCHOR_TAG.findall(path.read_text(encoding="utf-8")))
    seen: dict[str, int] = {}
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open":
            continue
        text = "".join(c.content for c in tokens[i + 1].children or [] if c.type in ("text", "code_inline"))
        slug = heading_slug(text)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def relative_links(path: Path) -> list[str]:
    """Every link and image target of a Markdown file that is not a URL (no scheme, not ``//``),
    outside code blocks and code spans."""
    from urllib.parse import urlparse

    targets = []
    for tok in _parse(path):
        for child in tok.children or []:
            target = child.attrGet("href") if child.type == "link_open" else (
                child.attrGet("src") if child.type == "image" else None)
            if isinstance(target, str) and not urlparse(target).scheme and not target.startswith("//"):
                targets.append(target)
    return targets


def broken_links(files: list[Path]) -> list[str]:
    """``file: target (why)`` for each relative link of ``files`` whose file does not exist, or
    whose ``#anchor`` names no heading or ``<a id>`` of the Markdown file it points into."""
    from urllib.parse import unquote

    broken = []
    for md in files:
        for target in relative_links(md):
            name, _, anchor = target.partition("#")
            dest = (md.parent / unquote(name)).resolve() if name else md
            where = f"{md.relative_to(ROOT) if md.is_relative_to(ROOT) else md}: {target}"
            if not dest.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and dest.suffix == ".md" and unquote(anchor) not in anchors(dest):
                broken.append(f"{where} (no such anchor)")
    return broken


def test_heading_slugs_are_githubs():
    assert heading_slug("The auditor's dossier") == "the-auditors-dossier"
    assert heading_slug("Bacará a dos paños (banca francesa) — bacara_dos_panos") == \
        "bacará-a-dos-paños-banca-francesa--bacara_dos_panos"
    assert heading_slug("After make demo") == "after-make-demo"


def test_the_link_check_finds_a_missing_page_and_a_missing_anchor(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Page A\n\n## Its part\n\n<a id=\"spot\"></a>\n\nx\n\n## Its part\n")
    (tmp_path / "README.md").write_text(
        "# R\n\n[ok](docs/a.md) [ok](docs/a.md#its-part) [ok](docs/a.md#its-part-1) [ok](docs/a.md#spot)"
        " [ok](#r) [web](https://example.org/x.md) ![img](docs/a.md)\n\n"
        "[gone](docs/b.md) [bad anchor](docs/a.md#nothing) [bad here](#nowhere)\n\n"
        "```\n[in code](docs/c.md)\n```\n")
    assert broken_links([tmp_path / "README.md"]) == [
        f"{tmp_path / 'README.md'}: docs/b.md (no such file)",
        f"{tmp_path / 'README.md'}: docs/a.md#nothing (no such anchor)",
        f"{tmp_path / 'README.md'}: #nowhere (no such anchor)",
    ]


def test_every_relative_link_of_the_readme_and_the_docs_resolves():
    pages = [README, *sorted((ROOT / "docs").glob("**/*.md"))]
    assert len(pages) > 10  # the README, the reference pages and the generated game pages
    assert broken_links(pages) == []


def test_the_readme_is_one_page():
    assert len(README.read_bytes()) < README_MAX_BYTES


def test_the_readme_gives_exactly_the_two_setup_commands():
    """CI reads the test command from the README: one shell block under "Two commands" with
    ``make demo`` and ``make test`` and nothing else."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Two commands\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    commands = [line.split("#", 1)[0].strip() for line in blocks[0].splitlines() if line.strip()]
    assert commands == ["make demo", "make test"]
    assert "\n## Architecture\n" in text  # the lead's section on the data flow
