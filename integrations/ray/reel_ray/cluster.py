"""The Ray side of a run: connecting, the options every task gets, and the tasks' outcomes as
they finish."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import ray
from ray.exceptions import RayError, RayTaskError

from . import attempts
from .units import PermanentReelError, ReelError, RetryableReelError


class ClusterUnavailable(Exception):
    """The Ray cluster could not be reached."""


def _check_reachable(address: str) -> None:
    """Fails at once when a HOST:PORT address does not answer (ray.init would keep retrying);
    other addresses (auto without $RAY_ADDRESS, local, ray://…) are left to Ray."""
    host, _, port = address.rpartition(":")
    if not host or "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as error:
        raise ClusterUnavailable(f"cannot connect to the Ray cluster at {address}: {error.strerror or error}") from None


@dataclass(frozen=True)
class Cluster:
    """Which cluster, and what each task asks of it."""

    address: str = "auto"
    num_cpus: float = 1
    max_retries: int = 3

    def connect(self) -> None:
        _check_reachable(os.environ.get("RAY_ADDRESS", "") if self.address == "auto" else self.address)
        try:
            ray.init(address=self.address, log_to_driver=False, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ClusterUnavailable(f"cannot connect to the Ray cluster at {self.address}: {error}") from None

    def task_options(self) -> dict[str, Any]:
        """Retries: a RetryableReelError (reel exited 1 or was killed) and a worker that died
        are tried again, max_retries times; a PermanentReelError never is. SPREAD hands the
        units to as many nodes as have room."""
        return {
            "num_cpus": self.num_cpus,
            "max_retries": self.max_retries,
            "retry_exceptions": [RetryableReelError],
            "scheduling_strategy": "SPREAD",
        }


@dataclass(frozen=True)
class Outcome:
    """A unit's end: the task's result, or the last error and whether it was permanent."""

    unit: int
    result: Any = None
    error: str | None = None
    permanent: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def _outcome(unit: int, ref: ray.ObjectRef) -> Outcome:
    try:
        return Outcome(unit, result=ray.get(ref))
    except RayTaskError as error:
        cause = error.cause
        if isinstance(cause, ReelError):
            return Outcome(unit, error=str(cause), permanent=isinstance(cause, PermanentReelError))
        return Outcome(unit, error=str(error), permanent=True)
    except RayError as error:  # the worker or its node died on the last try, or the task was cancelled
        return Outcome(unit, error=str(error).strip())


class Run:
    """One run's tasks on the cluster, with the attempt log they record their tries in."""

    def __init__(self, cluster: Cluster) -> None:
        cluster.connect()
        self._options = cluster.task_options()
        self._log = attempts.AttemptLog.remote()
        self._units: dict[ray.ObjectRef, int] = {}

    def submit(self, task: Any, unit: int, *args: Any) -> None:
        """Starts task(*args, unit, log) for a unit."""
        self._units[task.options(**self._options).remote(*args, unit, self._log)] = unit

    def outcomes(self) -> Iterator[Outcome]:
        """Every unit's outcome, in the order they finish."""
        pending: list[ray.ObjectRef] = list(self._units)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield _outcome(self._units[done[0]], done[0])

    def tries(self) -> dict[int, list[dict]] | None:
        """Every unit's tries (see attempts.AttemptLog), or None if they are not known."""
        return attempts.read(self._log)
