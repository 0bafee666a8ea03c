"""docs/PYTHON.md's examples: every ```python block runs, in order, in one
namespace (so a later block may use an earlier one's names)."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "PYTHON.md"


def blocks():
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.S | re.M)


def test_the_guide_has_examples():
    assert len(blocks()) >= 6


def test_every_example_of_the_guide_runs():
    namespace = {}
    for i, code in enumerate(blocks()):
        try:
            exec(compile(code, f"{DOC.name} block {i + 1}", "exec"), namespace)
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"docs/PYTHON.md block {i + 1} fails: {e!r}\n{code}") from e
