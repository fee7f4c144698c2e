"""posting.records: what identifies the build that made a result."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import posting
from posting.records import files_sha256, tool_files_sha256


def _by_hand(files: dict[str, bytes]) -> str:
    """The digest worked out from its definition: each file, in the order of its path, as the
    lengths of its path and content, its path and its content."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(f"{len(name)}:{len(files[name])}:{name}".encode() + files[name])
    return h.hexdigest()


def test_files_sha256_is_paths_and_bytes_and_nothing_else(tmp_path):
    a = tmp_path / "a"
    (a / "rules").mkdir(parents=True)
    (a / "__pycache__").mkdir()
    (a / "x.py").write_bytes(b"x = 1\n")
    (a / "rules" / "f.toml").write_bytes(b'name = "f"\n')
    (a / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")  # not part of a build
    want = _by_hand({"x.py": b"x = 1\n", "rules/f.toml": b'name = "f"\n'})
    assert files_sha256(a) == want
    # the same files elsewhere (a wheel installed from that source): the same build
    b = tmp_path / "elsewhere" / "b"
    shutil.copytree(a, b, ignore=shutil.ignore_patterns("__pycache__"))
    assert files_sha256(b) == want
    # a byte changed, a file renamed, a file added: another build
    (b / "rules" / "f.toml").write_bytes(b'name = "g"\n')
    assert files_sha256(b) != want
    (b / "rules" / "f.toml").write_bytes(b'name = "f"\n')
    (b / "rules" / "f.toml").rename(b / "rules" / "g.toml")
    assert files_sha256(b) == _by_hand({"x.py": b"x = 1\n", "rules/g.toml": b'name = "f"\n'})
    (b / "rules" / "g.toml").rename(b / "rules" / "f.toml")
    (b / "y.py").write_bytes(b"")
    assert files_sha256(b) != want
    # a content's bytes cannot be moved into the name of the next file unseen
    c = tmp_path / "c"
    c.mkdir()
    (c / "p").write_bytes(b"12")
    (c / "q").write_bytes(b"")
    d = tmp_path / "d"
    d.mkdir()
    (d / "p").write_bytes(b"1")
    (d / "q").write_bytes(b"2")
    assert files_sha256(c) != files_sha256(d)


def test_tool_files_sha256_is_the_running_package_s():
    package = Path(posting.__file__).resolve().parent
    files = {
        f.relative_to(package).as_posix(): f.read_bytes()
        for f in package.rglob("*")
        if f.is_file() and "__pycache__" not in f.relative_to(package).parts
    }
    assert "engine.py" in files and "rules/florida.toml" in files
    assert tool_files_sha256() == _by_hand(files)
