"""Running reel, and what its exit status means for a unit of work.

Every reel command exits 0 when done. 64 (bad usage), 65 (invalid project, row or part),
66 (a file is missing) and 73 (the output may not be written) come back the same on a retry:
they are permanent. 1 (a failure while rendering), death by a signal and any other status may
not: they are retryable.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable

PERMANENT_STATUSES = {
    64: "bad usage",
    65: "invalid project, row or part",
    66: "a file is missing",
    73: "the output may not be written",
}


class ReelError(Exception):
    """A reel command that did not succeed: reel's own message and its exit status
    (negative: killed by that signal; None: reel could not be started)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message, status)
        self.message = message
        self.status = status

    def __str__(self) -> str:
        return self.message


class PermanentReelError(ReelError):
    """Fails the same way on every try: never retried."""


class RetryableReelError(ReelError):
    """May succeed on another try: Ray retries it (retry_exceptions)."""


def is_permanent(status: int) -> bool:
    """Whether a reel exit status is the same on every retry."""
    return status in PERMANENT_STATUSES


def exit_status(error: ReelError) -> int:
    """The status to exit with after a reel command failed: reel's own, else 1."""
    return error.status if error.status and error.status > 0 else 1


def describe_status(status: int) -> str:
    """`exit 65 (invalid project, row or part)`, `killed by SIGKILL`, `exit 1`."""
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    meaning = PERMANENT_STATUSES.get(status)
    return f"exit {status}" + (f" ({meaning})" if meaning else "")


def error_for(command: Sequence[str], done: subprocess.CompletedProcess) -> ReelError:
    """The classified error of a reel run that did not exit 0; its message is reel's stderr
    (its stdout when stderr is empty), or what happened when reel printed nothing."""
    said = (done.stderr or "").strip() or (done.stdout or "").strip()
    if done.returncode < 0:
        message = f"reel {command[1]} was {describe_status(done.returncode)}" + (f"\n{said}" if said else "")
    else:
        message = said or f"reel {command[1]} failed: {describe_status(done.returncode)}"
    kind = PermanentReelError if is_permanent(done.returncode) else RetryableReelError
    return kind(message, done.returncode)


def _parent_death_signal() -> Callable[[], None] | None:
    """On Linux, a function for preexec_fn that has the child killed when the process that
    started it dies, so a reel render does not outlive a killed Ray worker."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    set_parent_death_signal = 1  # PR_SET_PDEATHSIG

    def arm() -> None:
        prctl(set_parent_death_signal, int(signal.SIGKILL))

    return arm


@dataclass(frozen=True)
class Reel:
    """The reel executable: a path, or a name looked up on PATH where it runs."""

    executable: str = "reel"

    def run(self, args: Sequence[str], *, die_with_parent: bool = False) -> subprocess.CompletedProcess:
        """Runs `reel ARGS` (no shell) and returns it when it exits 0; raises the classified
        ReelError otherwise. die_with_parent: killed if the calling process dies (workers)."""
        command = [self.executable, *args]
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                preexec_fn=_parent_death_signal() if die_with_parent else None,
            )
        except OSError as error:
            raise PermanentReelError(f"error: cannot run {self.executable}: {error.strerror or error}") from None
        if done.returncode != 0:
            raise error_for(command, done)
        return done
