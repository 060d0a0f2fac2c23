"""CPU seconds of the processes a benchmark runs beside (psutil: the ``bench`` extra)."""
from __future__ import annotations


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process and its children (those alive now)."""
    import psutil

    try:
        root = psutil.Process(pid)
        total = 0.0
        for p in [root, *root.children(recursive=True)]:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return total
    except psutil.NoSuchProcess:
        return 0.0


def named_cpu(prefix: str) -> float:
    """User + system CPU seconds of every process whose name starts with ``prefix`` (``postgres``: the
    server and its backends; ``redis-server``), with their children that have ended (a backend whose
    connection closed counts in its postmaster's)."""
    import psutil

    total = 0.0
    for p in psutil.process_iter(["name"]):
        if p.info["name"] and p.info["name"].startswith(prefix):
            try:
                t = p.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every core's time not idle nor waiting)."""
    import psutil

    t = psutil.cpu_times()
    return sum(t) - t.idle - getattr(t, "iowait", 0.0)
