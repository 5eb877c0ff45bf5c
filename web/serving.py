"""Serve with one process per core, each a waitress server, under gunicorn's arbiter.

gunicorn starts, watches and restarts the processes; waitress serves in each. Waitress reads
every request whole on its one I/O loop before a thread takes it, and writes answers from that
loop too, so a phone that sends its headers a byte at a time, or never reads what it asked
for, holds a socket but never one of the threads that record the tables' rounds.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any

from gunicorn.workers.base import Worker
from waitress.server import create_server

SETTINGS: dict[str, Any] = {
    # Threads only run requests, each a few milliseconds: 8 keep two cores busy while one waits
    # on the database.
    "threads": 8,
    # Every watching phone keeps a socket open, which costs waitress no thread.
    "connection_limit": 1000,
    # An idle socket is closed after a minute; the phone simply opens another.
    "channel_timeout": 60,
    # poll(), not select(): a thousand sockets is past what select() can watch.
    "asyncore_use_poll": True,
    "ident": "Tablescore",
    # Forwarded headers are the app's to trust or not (TABLESCORE_BEHIND_PROXY, ProxyFix):
    # waitress trusts no proxy, and passes them on untouched rather than dropping them.
    "trusted_proxy": None,
    "clear_untrusted_proxy_headers": False,
}
"""How each process serves: the same settings as `bin/serve` gives waitress alone."""


class WaitressWorker(Worker):
    """A gunicorn worker process that serves its share of the sockets with waitress."""

    def run(self) -> None:
        """Serve until gunicorn or the parent's death says stop; tell the arbiter we live."""
        server = create_server(self.wsgi, sockets=[s.sock for s in self.sockets], **SETTINGS)
        threading.Thread(target=self.beat, daemon=True, name="heartbeat").start()
        server.run()

    def beat(self) -> None:
        """Tell the arbiter this process is alive, and stop it if the arbiter is gone."""
        while self.alive:
            self.notify()
            if os.getppid() != self.ppid:
                self.log.info("Parent changed, shutting down: %s", self)
                os.kill(os.getpid(), signal.SIGTERM)
                return
            time.sleep(max(self.timeout / 2, 1))

    def handle_exit(self, sig: int, frame: Any) -> None:
        """Leave waitress's loop on SIGTERM: waitress lets running requests finish."""
        self.alive = False
        sys.exit(0)
