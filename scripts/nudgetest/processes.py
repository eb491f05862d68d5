"""Ending what a case started: our children, daemons that forked away, and their descendants
(found by a marker in their environment, never by a name every process could have)."""

import os
import signal
import subprocess
import time


def stop(proc, seconds=5.0):
    """Ends a child (a Popen): SIGTERM, up to `seconds` to exit, then SIGKILL; reaps it.
    `seconds=0` kills at once. Nothing happens to a child that has exited already."""
    if proc is None:
        return
    if proc.poll() is None and seconds > 0:
        proc.terminate()
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            pass
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def alive(pid):
    """True while `pid` runs (a zombie, dead but not yet reaped by its parent, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_gone(pids, seconds):
    """Waits up to `seconds` until none of `pids` runs; returns those still running."""
    deadline = time.monotonic() + seconds
    left = [p for p in pids if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        left = [p for p in left if alive(p)]
    return left


def stop_pid(pid, seconds=5.0):
    """Ends a process that is not our child (a daemon that forked away): SIGTERM, up to
    `seconds` to exit, then SIGKILL. True once it is gone."""
    signal_all([pid], signal.SIGTERM)
    if wait_gone([pid], seconds):
        signal_all([pid], signal.SIGKILL)
    return not wait_gone([pid], 5)


def signal_all(pids, signum):
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def kill(pids, seconds=5.0):
    """SIGKILLs `pids` and waits up to `seconds` until they are gone; returns the pids."""
    signal_all(pids, signal.SIGKILL)
    wait_gone(pids, seconds)
    return pids


def marked(name, value):
    """The running processes whose environment holds `name=value`: what a process started
    with that variable started in turn, wherever it moved (another session, another parent)."""
    wanted = f"{name}={value}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environment = f.read().split(b"\0")
        except OSError:  # gone meanwhile, or a kernel thread
            continue
        if wanted in environment and alive(int(entry)):
            found.append(int(entry))
    return found


def kill_marked(name, value, seconds=5.0):
    """SIGKILLs every process marked `name=value` (see marked) and waits up to `seconds` for
    them to go (again for any that one of them started meanwhile); returns the pids killed."""
    killed = []
    for _ in range(3):
        pids = [p for p in marked(name, value) if p not in killed]
        if not pids:
            break
        killed += kill(pids, seconds)
    return killed
