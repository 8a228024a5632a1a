"""What systemd does for one daphne process (``poker@.socket`` and ``poker@.service``), in the
harness: it binds the process's listening socket itself and hands it to daphne as file
descriptor 3 (socket activation: the unit's ``daphne ... --fd 3``), so the port outlives the
process; it restarts the process as ``systemctl restart`` does, and as ``Restart=on-failure``
does after a crash.

    python -m deploy.hosts.holder ADDRESS PORT PIDFILE -- daphne-arguments...

- SIGHUP: ``systemctl restart``: SIGTERM to the process (it drains), wait for its exit
  (``TimeoutStopSec``, then SIGKILL), start it again on the same socket. Connections that come
  meanwhile wait in the socket's backlog.
- The process dies on its own with a failure: started again ``RESTART_SECONDS`` later.
- SIGTERM: ``systemctl stop poker.target``: the process stopped, then the holder exits and
  the port with it.
- A host's loss kills the holder with its process (the port closes: connections are refused).

``PIDFILE`` holds the running process's pid (systemd's ``MainPID``), rewritten at each start.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

#: The descriptor systemd hands the first socket on (``SD_LISTEN_FDS_START``).
LISTEN_FD = 3
#: ``poker@.socket``'s ``Backlog=``.
BACKLOG = 4096
#: ``poker@.service``'s ``RestartSec=`` and ``TimeoutStopSec=``.
RESTART_SECONDS = 1.0
STOP_SECONDS = 90.0


def listening_socket(address: str, port: int) -> socket.socket:
    """The port, bound and listening, on ``LISTEN_FD`` (inherited by each process started)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # the unit's NoDelay=true
    sock.bind((address, port))
    sock.listen(BACKLOG)
    if sock.fileno() != LISTEN_FD:
        os.dup2(sock.fileno(), LISTEN_FD)
    os.set_inheritable(LISTEN_FD, True)
    return sock


def say(what: str) -> None:
    """A line of the holder's log, with the time (a restart's gap is read from these)."""
    now = time.time()
    clock = time.strftime("%H:%M:%S", time.localtime(now))
    print(f"holder {clock}.{int(now * 1000) % 1000:03d}: {what}", flush=True)


class Holder:
    def __init__(self, command: list[str], pidfile: Path) -> None:
        self.command, self.pidfile = command, pidfile
        self.proc: subprocess.Popen[bytes] | None = None
        self.restart_asked = self.stop_asked = False

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command, pass_fds=(LISTEN_FD,))
        self.pidfile.write_text(f"{self.proc.pid}\n")
        say(f"started pid {self.proc.pid}")

    def stop_process(self) -> int | None:
        """SIGTERM (the drain), then SIGKILL past ``STOP_SECONDS``; its exit status."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return None if proc is None else proc.returncode
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()

    def run(self) -> int:
        signal.signal(signal.SIGHUP, lambda *_: setattr(self, "restart_asked", True))
        signal.signal(signal.SIGTERM, lambda *_: setattr(self, "stop_asked", True))
        self.start()
        while True:
            time.sleep(0.1)
            assert self.proc is not None
            if self.stop_asked:
                self.stop_process()
                return 0
            if self.restart_asked:
                self.restart_asked = False
                code = self.stop_process()
                say(f"restart, the process exited with {code}")
                self.start()
            elif self.proc.poll() is not None and self.proc.returncode != 0:
                say(f"the process failed ({self.proc.returncode})")
                time.sleep(RESTART_SECONDS)
                if not self.stop_asked:
                    self.start()


def main(argv: list[str]) -> int:
    address, port, pidfile, dashes, *command = argv
    if dashes != "--" or not command:
        print(__doc__, file=sys.stderr)
        return 2
    held = listening_socket(address, int(port))  # kept open for the holder's life
    try:
        return Holder(command, Path(pidfile)).run()
    finally:
        held.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
