"""The phone's own Python: Pyodide's runtime, fetched once at install time from the npm
registry's package (pinned, and checked against its sha256), unpacked beside the virtual
environment with a gzip copy of each file made then, and served by the app itself under a
versioned address, so that a phone scoring alone never asks any other host for a byte and
never waits for the server to compress nine megabytes."""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request, session
from flask.typing import ResponseReturnValue

VERSION = "314.0.8"
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
SHA256 = "9a52704e0ae5b07aaacb8e4fed9f1658e8024694a078695ea45ac79dee4cefcb"
FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What a phone needs of the package to start Python: its loader, the interpreter and the
standard library, and the list of packages it could load."""
TYPES = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
"""The Content-Type of each file, by its suffix: a browser compiles WebAssembly as it streams
in only when it is served as application/wasm."""
MARKER = ".installed"
"""Written last into an install, holding the package's sha256: without it nothing is there."""
DOWNLOAD_TIMEOUT = 60
YEAR = 365 * 24 * 3600
ROOT = Path(__file__).resolve().parent.parent
"""The repository, whose virtual environment the runtime is installed beside."""

bp = Blueprint("runtime", __name__)


class InstallError(Exception):
    """The package fetched is not the one pinned, or lacks a file the phones need."""


def runtime_dir(root: Path) -> Path:
    """Return where the runtime is installed by default, inside the repository's virtual
    environment: rebuilt with it, and never committed."""
    return root / ".venv" / "share" / f"pyodide-{VERSION}"


def marked(target: Path, sha256: str) -> bool:
    """Say whether `target` holds a finished install of the package of this sha256."""
    try:
        return (target / MARKER).read_text().strip() == sha256
    except OSError:
        return False


def install(target: Path, source: str = TARBALL, sha256: str = SHA256) -> None:
    """Install the runtime into `target` from the package at `source` (a URL or a local file),
    unless it is there already; a package of another sha256 installs nothing.

    Everything is made in a directory beside `target` and renamed into place whole, so that
    an install cut short never looks finished.
    """
    if marked(target, sha256):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{target.name}-") as work:
        tarball = fetch(source, Path(work) / "package.tgz")
        check_digest(tarball, sha256, source)
        staged = Path(work) / target.name
        unpack(tarball, staged)
        (staged / MARKER).write_text(f"{sha256}\n")
        # Another install (a second server starting) may have finished meanwhile: it stays.
        if marked(target, sha256):
            return
        if target.exists():
            # An install of another package, or an unmarked leftover: replaced whole.
            shutil.rmtree(target)
        try:
            staged.rename(target)
        except OSError:
            if not marked(target, sha256):
                raise


def fetch(source: str, into: Path) -> Path:
    """Return a local path to the package: a URL is downloaded to `into`, a path used as is."""
    if urllib.parse.urlsplit(source).scheme not in ("http", "https"):
        return Path(source)
    with urllib.request.urlopen(source, timeout=DOWNLOAD_TIMEOUT) as answer, into.open("wb") as out:
        shutil.copyfileobj(answer, out)
    return into


def check_digest(tarball: Path, sha256: str, source: str) -> None:
    """Refuse a package whose sha256 is not the one pinned: it is not the runtime we checked."""
    with tarball.open("rb") as package:
        found = hashlib.file_digest(package, "sha256").hexdigest()
    if found != sha256:
        raise InstallError(f"{source} has sha256 {found}, not the expected {sha256}")


def unpack(tarball: Path, staged: Path) -> None:
    """Write the files the phones need, and a gzip copy of each, into `staged`.

    Only the members of those exact names are read, as regular files: no other member of
    the package, whatever its name, is ever written.
    """
    staged.mkdir()
    with tarfile.open(tarball, "r:gz") as package:
        for name in FILES:
            try:
                member = package.getmember(f"package/{name}")
            except KeyError:
                raise InstallError(f"the package holds no package/{name}") from None
            body = package.extractfile(member) if member.isfile() else None
            if body is None:
                raise InstallError(f"package/{name} in the package is not a regular file")
            with body, (staged / name).open("wb") as out:
                shutil.copyfileobj(body, out)
            pack(staged / name)


def pack(path: Path) -> None:
    """Write `path`.gz beside it, as small as gzip makes it and the same at every install."""
    packed = path.with_name(f"{path.name}.gz")
    with path.open("rb") as plain, packed.open("wb") as out:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=out, mtime=0) as gz:
            shutil.copyfileobj(plain, gz)


def served_dir() -> Path:
    """Return where this app serves the runtime from (PYODIDE_DIR, by default runtime_dir's)."""
    return Path(current_app.config["PYODIDE_DIR"])


def installed() -> bool:
    """Say whether this app has the runtime to serve, so phones may score alone."""
    return marked(served_dir(), SHA256)


def read(path: Path) -> bytes:
    """Return a runtime file's bytes, read once per process for each install of it: the body
    comes from memory, as the assets' do, never from a file left open while a phone that
    went away stops reading it."""
    found = path.stat()
    return read_once(path, found.st_mtime_ns, found.st_size)


@functools.lru_cache(maxsize=len(FILES) * 2)
def read_once(path: Path, _mtime_ns: int, _size: int) -> bytes:
    """Read a file as it is at this modification time and size (both are the cache's key)."""
    return path.read_bytes()


@bp.get(f"/alone/pyodide-{VERSION}/<name>")
def served(name: str) -> ResponseReturnValue:
    """Serve one file of the runtime, its gzip copy made at install when the phone takes gzip:
    the same bytes for a year, as the address names the version."""
    folder = served_dir()
    if name not in FILES:
        abort(404, "No such file: the phone's Python has no file of that name.")
    if not marked(folder, SHA256):
        abort(404, "No such file: the phone's Python is not installed on this server.")
    path = folder / name
    packed = folder / f"{name}.gz"
    gzipped = request.accept_encodings["gzip"] > 0 and packed.is_file()
    sent = packed if gzipped else path
    body = read(sent)
    # Sent as stored, compressed at install or plain to a phone that takes no gzip: as one
    # chunk, which Flask-Compress leaves alone.
    response = Response(iter([body]), mimetype=TYPES[path.suffix])
    response.content_length = len(body)
    response.cache_control.public = True
    response.cache_control.max_age = YEAR
    response.set_etag(f"{sent.name}-{len(body)}-{sent.stat().st_mtime_ns}")
    response.make_conditional(request)
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.cache_control.immutable = True
    # The language was looked up in the session, but these bytes are the same for every phone:
    # no "Vary: Cookie", or a phone's cache would fetch them again each time its cookie changes.
    session.accessed = False
    return response


def main(argv: list[str] | None = None) -> int:
    """Install the runtime beside the virtual environment, saying where, or why it could not;
    only with --required is a failure the install's own."""
    parser = argparse.ArgumentParser(
        prog="python -m web.runtime", description="Install the phone's Python (Pyodide)."
    )
    parser.add_argument(
        "--required", action="store_true", help="exit 1 when it cannot be installed"
    )
    arguments = parser.parse_args(argv)
    # Where the app will look: TABLESCORE_PYODIDE_DIR sets both.
    target = Path(os.environ.get("TABLESCORE_PYODIDE_DIR") or runtime_dir(ROOT))
    try:
        install(target)
    except (OSError, tarfile.TarError, InstallError) as error:
        print(
            f"Tablescore: the phone's offline scorers could not be installed ({error}); "
            "phones will not score alone until they are.",
            file=sys.stderr,
        )
        return 1 if arguments.required else 0
    print(f"Tablescore: the phone's Python (Pyodide {VERSION}) is installed in {target}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
