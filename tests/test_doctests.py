"""The README's Python examples run as written (the package's own doctests run through
``--doctest-modules``, see pyproject.toml)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def examples(text: str) -> list[str]:
    """The fenced ``pycon`` / ``python`` blocks of a Markdown text that hold ``>>>`` examples."""
    blocks = re.findall(r"^```(?:pycon|python)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    return [block for block in blocks if ">>>" in block]


def test_the_readme_examples_run_as_written() -> None:
    blocks = examples(README.read_text(encoding="utf-8"))
    assert blocks, "the README shows the library in a >>> example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README.md example {i + 1}", str(README), 0))
    results = runner.summarize(verbose=False)
    assert results.attempted > 0 and results.failed == 0
