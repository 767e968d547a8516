"""A fixed CPU share for a process, the way capacity is planned in production: a cgroup
of its own with a CPU quota (cgroup v1's ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``,
or v2's ``cpu.max``), its CPU time read from the cgroup (v1's ``cpuacct.usage``, v2's
``cpu.stat``) and how often the quota held it back (``nr_throttled`` of ``nr_periods``).

Making a cgroup needs root and a writable cgroup file system; :func:`why_not` says in one
line why it cannot be done here. Every cgroup made is removed by :meth:`CpuCap.remove`
(its processes, if any remain, go back to the root group first).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CPU, V1_ACCT = ROOT / "cpu", ROOT / "cpuacct"
PERIOD_US = 100_000


def _version() -> int | None:
    if (V1_CPU / "cpu.cfs_quota_us").exists():
        return 1
    controllers = ROOT / "cgroup.controllers"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        return 2
    return None


def why_not() -> str | None:
    """None when a CPU cgroup can be made here, else why not (one line)."""
    version = _version()
    if version is None:
        return "no cgroup CPU controller (neither v1's cpu.cfs_quota_us nor v2's cpu.max)"
    probe = (V1_CPU if version == 1 else ROOT) / f"twintable-probe-{os.getpid()}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError as error:
        return f"cannot make a cgroup under {probe.parent} ({error.strerror}; needs root)"
    return None


class CpuCap:
    """A cgroup whose processes share ``share`` of one core (0.4: 40 ms of every 100 ms)."""

    def __init__(self, name: str, share: float):
        self.version = _version()
        if self.version is None:
            raise OSError(why_not())
        self.share = share
        quota = max(1000, round(share * PERIOD_US))
        if self.version == 1:
            self.cpu = V1_CPU / name
            self.cpu.mkdir()
            (self.cpu / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.cpu / "cpu.cfs_quota_us").write_text(str(quota))
            # cpuacct is a hierarchy of its own here: the same name there counts the time.
            self.acct: Path | None = V1_ACCT / name if V1_ACCT.is_dir() else None
            if self.acct is not None:
                self.acct.mkdir()
        else:
            subtree = ROOT / "cgroup.subtree_control"
            if "cpu" not in subtree.read_text().split():
                subtree.write_text("+cpu")
            self.cpu = ROOT / name
            self.cpu.mkdir()
            (self.cpu / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            self.acct = None

    def add(self, pid: int) -> None:
        """Move a process, every thread of it (``cgroup.procs`` moves the thread group;
        threads it starts later are born inside), into the cgroup."""
        for group in (self.cpu, self.acct):
            if group is not None:
                (group / "cgroup.procs").write_text(str(pid))
        threads = {int(t.name) for t in Path(f"/proc/{pid}/task").iterdir()}
        listed = {int(line) for line in (self.cpu / ("tasks" if self.version == 1 else
                                                     "cgroup.threads")).read_text().split()}
        if not threads <= listed:
            raise OSError(f"threads {sorted(threads - listed)} of {pid} stayed outside")

    def usage_s(self) -> float | None:
        """CPU seconds its processes used since they joined (None: not counted here)."""
        if self.version == 1:
            if self.acct is None:
                return None
            return int((self.acct / "cpuacct.usage").read_text()) / 1e9
        return self._stat().get("usage_usec", 0) / 1e6

    def throttling(self) -> tuple[int, int]:
        """(periods in which it ran, periods in which the quota stopped it)."""
        stat = self._stat()
        return stat.get("nr_periods", 0), stat.get("nr_throttled", 0)

    def _stat(self) -> dict[str, int]:
        lines = (self.cpu / "cpu.stat").read_text().split("\n")
        return {key: int(value) for key, value in (line.split() for line in lines if line)}

    def remove(self) -> None:
        """Put back any process still inside, then remove the cgroup."""
        for group, parent in ((self.cpu, self.cpu.parent), (self.acct, V1_ACCT)):
            if group is None or not group.exists():
                continue
            for pid in (group / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):  # ended meanwhile
                    (parent / "cgroup.procs").write_text(pid)
            for _ in range(50):  # a process that just ended may hold it a moment
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                group.rmdir()
