"""Tablescore served as a user serves it, for the tests that need a real server on 127.0.0.1:
bin/serve started over a database of the test's own, and a phone's keep-alive connection."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"


def free_port() -> int:
    """A port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def started(command: list[str], folder: Path, **env: str) -> subprocess.Popen:
    """Start a server over the database file club.sqlite in the folder (made if missing)."""
    env = {
        **os.environ,
        "TABLESCORE_DATABASE": str(folder / "club.sqlite"),
        "TABLESCORE_SECRET_KEY": "test",
        **env,
    }
    said = folder / f"server-{len(list(folder.glob('server-*')))}.log"
    with said.open("w") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stderr=log)
    server.said = said  # type: ignore[attr-defined]
    return server


def serve(folder: Path, port: int | None = None, **env: str) -> tuple[subprocess.Popen, int]:
    """Start bin/serve as a user does, on 127.0.0.1 and a free port (or the one it had before),
    and wait for it."""
    port = port or free_port()
    server = started([str(ROOT / "bin" / "serve")], folder, PORT=str(port), HOST="127.0.0.1", **env)
    listening(port, server)
    return server, port


def listening(port: int, server: Any) -> None:
    """Wait until a started server answers, or fail with what it said."""
    for _ in range(150):
        if server.poll() is not None:
            pytest.fail(f"the server stopped: {server.said.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail("the server did not start")


def stop(server: subprocess.Popen) -> None:
    """Stop a server as Ctrl-C would, and wait for it."""
    server.terminate()
    server.wait(timeout=20)


def ask(port: int, method: str, path: str, body: Any = None, **headers: str) -> tuple:
    """Send one request on a connection of its own; return its status, headers and JSON."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = None if body is None else json.dumps(body)
    connection.request(method, path, data, {"Content-Type": "application/json", **headers})
    answer = connection.getresponse()
    text = answer.read()
    connection.close()
    return answer.status, answer.headers, json.loads(text) if text else None
