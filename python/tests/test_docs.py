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


def test_the_type_stubs_name_what_the_package_has():
    """Every class, method, property and function of the installed stubs
    exists in the package, and every public name of the package is stubbed."""
    import ast

    import gulbara

    stub = Path(gulbara.__file__).with_name("__init__.pyi")
    assert stub.exists(), "the wheel ships its type stubs"
    tree = ast.parse(stub.read_text())
    stubbed = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stubbed.add(node.name)
            cls = getattr(gulbara, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name != "__init__":
                    assert hasattr(cls, item.name), f"{node.name}.{item.name}"
                if isinstance(item, ast.AnnAssign):
                    # Attributes of the result classes: read on an instance elsewhere;
                    # here, that the class declares them.
                    assert item.target.id in dir(cls), f"{node.name}.{item.target.id}"
        elif isinstance(node, ast.FunctionDef):
            stubbed.add(node.name)
            assert callable(getattr(gulbara, node.name)), node.name
    public = {n for n in gulbara.__all__ if not n.startswith("_") and n != "GAMES"}
    assert public <= stubbed, public - stubbed
