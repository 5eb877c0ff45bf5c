"""The phone's Python is installed only from the package pinned, and only the files it needs;
the app serves them itself, gzipped once at install, for a year unchanged."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import tarfile
import urllib.error
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import runtime
from web.runtime import FILES, SHA256, VERSION, InstallError, install, runtime_dir

BROWSER = "gzip, deflate, br, zstd"
"""What a phone's browser says it takes: Flask-Compress would pick zstd or br from it."""
TYPES = {
    "pyodide.mjs": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
ADDRESS = f"/alone/pyodide-{VERSION}"


def body_of(name: str) -> bytes:
    """Return a fake file's bytes: its own, and long enough for Flask-Compress to want them."""
    return f"{name} of the fake package\n".encode() * 100


def build_package(path: Path, extra: dict[str, bytes] | None = None) -> str:
    """Write a package shaped like npm's (every file under package/), with the files the
    phones need and `extra` members; return its sha256."""
    members = {f"package/{name}": body_of(name) for name in FILES} | (extra or {})
    with tarfile.open(path, "w:gz") as package:
        for name, body in members.items():
            member = tarfile.TarInfo(name)
            member.size = len(body)
            package.addfile(member, io.BytesIO(body))
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def package(tmp_path: Path) -> tuple[str, str]:
    """Return a fake package's path and sha256."""
    path = tmp_path / "pyodide.tgz"
    return str(path), build_package(path)


@pytest.fixture
def installed_dir(tmp_path: Path, package: tuple[str, str]) -> Path:
    """Return a directory the fake package is installed in."""
    target = tmp_path / "share" / f"pyodide-{VERSION}"
    source, sha256 = package
    install(target, source, sha256)
    return target


@pytest.fixture
def pinned(monkeypatch: pytest.MonkeyPatch, package: tuple[str, str]) -> None:
    """Pin the fake package, as if it were the runtime the app serves."""
    monkeypatch.setattr(runtime, "SHA256", package[1])


@pytest.fixture
def phone(app: Flask, installed_dir: Path, pinned: None) -> FlaskClient:
    """Return a client of an app serving the fake package's runtime."""
    app.config["PYODIDE_DIR"] = str(installed_dir)
    return app.test_client()


def get_file(client: FlaskClient, name: str, accept: str | None = None):
    """Fetch one runtime file, asking for `accept` encodings; return the closed response and
    its body."""
    headers = {} if accept is None else {"Accept-Encoding": accept}
    with client.get(f"{ADDRESS}/{name}", headers=headers) as response:
        return response, response.get_data()


def test_install_writes_the_needed_files_and_a_gzip_copy_of_each(
    installed_dir: Path, package: tuple[str, str]
) -> None:
    wanted = {*FILES, *(f"{name}.gz" for name in FILES), ".installed"}
    assert {path.name for path in installed_dir.iterdir()} == wanted
    for name in FILES:
        assert (installed_dir / name).read_bytes() == body_of(name)
        packed = (installed_dir / f"{name}.gz").read_bytes()
        assert gzip.decompress(packed) == body_of(name)
        # No file name (flags 0) and no time in its header: the same at every install.
        assert packed[3:8] == bytes(5)
    assert (installed_dir / ".installed").read_text() == f"{package[1]}\n"


def test_every_install_writes_the_same_bytes(
    tmp_path: Path, installed_dir: Path, package: tuple[str, str]
) -> None:
    again = tmp_path / "again" / f"pyodide-{VERSION}"
    install(again, *package)
    for path in installed_dir.iterdir():
        assert (again / path.name).read_bytes() == path.read_bytes()


def test_a_second_install_does_nothing(installed_dir: Path, package: tuple[str, str]) -> None:
    before = {path.name: path.stat().st_mtime_ns for path in installed_dir.iterdir()}
    # The source is not even read: the marker says the package is there.
    install(installed_dir, str(installed_dir.parent / "missing.tgz"), package[1])
    after = {path.name: path.stat().st_mtime_ns for path in installed_dir.iterdir()}
    assert after == before


def test_an_install_of_another_package_replaces_the_old(
    tmp_path: Path, installed_dir: Path
) -> None:
    (installed_dir / "stale.txt").write_text("left from another package")
    other = tmp_path / "other.tgz"
    sha256 = build_package(other, {"package/README.md": b"readme"})
    install(installed_dir, str(other), sha256)
    assert (installed_dir / ".installed").read_text() == f"{sha256}\n"
    assert not (installed_dir / "stale.txt").exists()
    assert not (installed_dir / "README.md").exists()


def test_a_package_of_another_hash_installs_nothing(
    tmp_path: Path, package: tuple[str, str]
) -> None:
    share = tmp_path / "share"
    target = share / f"pyodide-{VERSION}"
    source, sha256 = package
    with pytest.raises(InstallError) as refused:
        install(target, source)
    assert str(refused.value) == f"{source} has sha256 {sha256}, not the expected {SHA256}"
    assert not target.exists()
    assert list(share.iterdir()) == []


@pytest.mark.parametrize(
    "member",
    ["package/evil.sh", "../x", "package/../x", "/tmp/tablescore-evil", "x", "package/pyodide.js"],
)
def test_other_members_of_the_package_are_never_written(tmp_path: Path, member: str) -> None:
    source = tmp_path / "pyodide.tgz"
    sha256 = build_package(source, {member: b"#!/bin/sh\necho gotcha\n"})
    target = tmp_path / "deep" / "share" / f"pyodide-{VERSION}"
    install(target, str(source), sha256)
    wanted = {*FILES, *(f"{name}.gz" for name in FILES), ".installed"}
    assert {path.name for path in target.iterdir()} == wanted
    written = {path.relative_to(tmp_path) for path in tmp_path.rglob("*") if path.is_file()}
    assert written == {
        Path("pyodide.tgz"),
        *(path.relative_to(tmp_path) for path in target.iterdir()),
    }
    assert not Path("/tmp/tablescore-evil").exists()


def test_a_needed_file_that_is_a_link_installs_nothing(tmp_path: Path) -> None:
    source = tmp_path / "pyodide.tgz"
    with tarfile.open(source, "w:gz") as package:
        for name in FILES:
            member = tarfile.TarInfo(f"package/{name}")
            if name == "pyodide.mjs":
                member.type, member.linkname = tarfile.SYMTYPE, "/etc/passwd"
                package.addfile(member)
            else:
                member.size = len(body_of(name))
                package.addfile(member, io.BytesIO(body_of(name)))
    sha256 = hashlib.sha256(source.read_bytes()).hexdigest()
    target = tmp_path / "share" / f"pyodide-{VERSION}"
    with pytest.raises(InstallError, match="package/pyodide.mjs in the package is not a regular"):
        install(target, str(source), sha256)
    assert list(target.parent.iterdir()) == []


def test_a_package_missing_a_needed_file_installs_nothing(tmp_path: Path) -> None:
    source = tmp_path / "pyodide.tgz"
    with tarfile.open(source, "w:gz") as package:
        member = tarfile.TarInfo("package/pyodide.mjs")
        member.size = 3
        package.addfile(member, io.BytesIO(b"js\n"))
    sha256 = hashlib.sha256(source.read_bytes()).hexdigest()
    target = tmp_path / "share" / f"pyodide-{VERSION}"
    with pytest.raises(InstallError, match="the package holds no package/pyodide.asm.mjs"):
        install(target, str(source), sha256)
    assert list(target.parent.iterdir()) == []


def test_the_command_says_why_it_could_not_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "runtime"
    monkeypatch.setenv("TABLESCORE_PYODIDE_DIR", str(target))

    def offline(*_args, **_kwargs):
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(runtime.urllib.request, "urlopen", offline)
    said = (
        "Tablescore: the phone's offline scorers could not be installed (<urlopen error no "
        "network>); phones will not score alone until they are.\n"
    )
    assert runtime.main([]) == 0
    assert capsys.readouterr() == ("", said)
    assert runtime.main(["--required"]) == 1
    assert capsys.readouterr() == ("", said)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_the_command_is_done_at_once_when_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "runtime"
    target.mkdir()
    (target / ".installed").write_text(f"{SHA256}\n")
    monkeypatch.setenv("TABLESCORE_PYODIDE_DIR", str(target))
    monkeypatch.setattr(runtime.urllib.request, "urlopen", pytest.fail)
    assert runtime.main(["--required"]) == 0
    said = f"Tablescore: the phone's Python (Pyodide {VERSION}) is installed in {target}.\n"
    assert capsys.readouterr() == (said, "")


def test_by_default_the_runtime_lives_in_the_virtual_environment(app: Flask) -> None:
    root = Path(__file__).parent.parent
    assert runtime_dir(root) == root / ".venv" / "share" / "pyodide-314.0.8"
    if "TABLESCORE_PYODIDE_DIR" not in os.environ:
        assert app.config["PYODIDE_DIR"] == str(runtime_dir(root))


@pytest.mark.parametrize("name", FILES)
def test_a_file_travels_as_gzipped_at_install(
    phone: FlaskClient, installed_dir: Path, name: str
) -> None:
    response, body = get_file(phone, name, BROWSER)
    packed = (installed_dir / f"{name}.gz").read_bytes()
    assert response.status_code == 200
    assert body == packed
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.headers["Content-Length"] == str(len(packed))
    assert response.mimetype == TYPES[name]
    assert response.headers["Vary"] == "Accept-Encoding"
    cache = response.cache_control
    assert (cache.public, cache.max_age, cache.immutable) == (True, 31536000, True)


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0"])
@pytest.mark.parametrize("name", FILES)
def test_a_file_travels_plain_to_a_phone_that_takes_no_gzip(
    phone: FlaskClient, installed_dir: Path, name: str, accept: str | None
) -> None:
    response, body = get_file(phone, name, accept)
    assert response.status_code == 200
    assert body == (installed_dir / name).read_bytes() == body_of(name)
    assert "Content-Encoding" not in response.headers
    assert response.headers["Content-Length"] == str(len(body_of(name)))
    assert response.mimetype == TYPES[name]
    assert response.headers["Vary"] == "Accept-Encoding"
    cache = response.cache_control
    assert (cache.public, cache.max_age, cache.immutable) == (True, 31536000, True)


def test_a_file_is_the_same_whatever_the_cookie(phone: FlaskClient) -> None:
    phone.post("/language", data={"language": "fa"})
    response, body = get_file(phone, "pyodide.mjs", BROWSER)
    assert response.status_code == 200
    assert gzip.decompress(body) == body_of("pyodide.mjs")
    assert response.headers["Vary"] == "Accept-Encoding"
    assert "Set-Cookie" not in response.headers


def test_a_file_without_its_gzip_copy_travels_plain(
    phone: FlaskClient, installed_dir: Path
) -> None:
    (installed_dir / "pyodide.asm.wasm.gz").unlink()
    response, body = get_file(phone, "pyodide.asm.wasm", BROWSER)
    assert response.status_code == 200
    assert body == body_of("pyodide.asm.wasm")
    assert "Content-Encoding" not in response.headers


@pytest.mark.parametrize(
    "name",
    ["pyodide.js", ".installed", "pyodide.mjs.gz", "package.json", "..%2Fapp.py", "%2e%2e"],
)
def test_only_the_runtime_files_are_served(phone: FlaskClient, name: str) -> None:
    response, body = get_file(phone, name)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert b"fake package" not in body
    assert b"is not installed" not in body


def test_another_version_is_not_served(phone: FlaskClient) -> None:
    with phone.get("/alone/pyodide-0.26.0/pyodide.mjs") as response:
        assert response.status_code == 404


def test_nothing_is_served_before_the_runtime_is_installed(
    app: Flask, tmp_path: Path, pinned: None
) -> None:
    half_done = tmp_path / "runtime"
    half_done.mkdir()
    (half_done / "pyodide.mjs").write_bytes(body_of("pyodide.mjs"))
    for folder in (tmp_path / "missing", half_done):
        app.config["PYODIDE_DIR"] = str(folder)
        with app.app_context():
            assert runtime.installed() is False
        response, body = get_file(app.test_client(), "pyodide.mjs")
        assert response.status_code == 404
        assert response.mimetype == "text/html"
        assert b"the phone&#39;s Python is not installed on this server" in body


def test_only_the_runtime_pinned_is_known_as_installed(
    app: Flask, installed_dir: Path, monkeypatch: pytest.MonkeyPatch, package: tuple[str, str]
) -> None:
    app.config["PYODIDE_DIR"] = str(installed_dir)
    with app.app_context():
        assert runtime.installed() is False
        monkeypatch.setattr(runtime, "SHA256", package[1])
        assert runtime.installed() is True


def test_the_real_runtime_is_the_package_pinned(app: Flask) -> None:
    folder = runtime_dir(Path(__file__).parent.parent)
    if not (folder / ".installed").exists():
        message = f"the runtime is not installed in {folder}: python -m web.runtime"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    assert (folder / ".installed").read_text() == f"{SHA256}\n"
    for name in FILES:
        assert gzip.decompress((folder / f"{name}.gz").read_bytes()) == (folder / name).read_bytes()
    assert (folder / "pyodide.asm.wasm").read_bytes()[:4] == b"\0asm"
    app.config["PYODIDE_DIR"] = str(folder)
    response, body = get_file(app.test_client(), "pyodide.asm.wasm", BROWSER)
    assert response.status_code == 200
    assert body == (folder / "pyodide.asm.wasm.gz").read_bytes()
