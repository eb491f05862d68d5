"""A private D-Bus session on an Xvfb display, with dunst (for the cases and scripts/bench)."""

import os
import subprocess
import tempfile
import time

from . import processes

# set in the environment of a desktop's dbus-daemon (to the desktop's folder): everything the
# bus activates inherits it, so stop() finds those processes wherever they went
MARK = "NUDGETEST_DESKTOP"


SESSION_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Desktop:
    """A private D-Bus session on the suite's Xvfb display, with dunst when asked. Only the
    services in its own folder can be activated (never the system's dunst). stop() (or the end
    of a `with` block) ends dunst, the bus and everything the bus activated."""

    def __init__(self, suite, activatable=None):
        self.suite = suite
        self.dir = tempfile.mkdtemp(prefix="desktop-", dir=suite.work)
        services = os.path.join(self.dir, "services")
        os.makedirs(services)
        if activatable:
            with open(os.path.join(services, "org.freedesktop.Notifications.service"), "w") as f:
                f.write("[D-BUS Service]\nName=org.freedesktop.Notifications\n"
                        f"Exec={activatable}\n")
        config = os.path.join(self.dir, "session.conf")
        with open(config, "w") as f:
            f.write(SESSION_CONFIG.format(services=services))
        out = subprocess.run(
            ["dbus-daemon", f"--config-file={config}", "--fork", "--print-address=1",
             "--print-pid=1"], env=dict(os.environ, **{MARK: self.dir}),
            capture_output=True, text=True, check=True).stdout.split()
        self.address, self.bus_pid = out[0], int(out[1])
        self.env = {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": suite.display}
        self.dunst = None
        self.stopped = False

    def start_dunst(self, action="open"):
        config = os.path.join(self.dir, "dunstrc")
        with open(config, "w") as f:
            f.write("[global]\n    font = DejaVu Sans Mono 10\n"
                    f"[nudge]\n    appname = nudge\n    action_name = {action}\n")
        env = dict(os.environ, **self.env)
        self.dunst = subprocess.Popen(["dunst", "-config", config], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if self.ctl("count", "displayed").isdigit():
                return
            time.sleep(0.05)
        self.kill_dunst()
        raise RuntimeError("dunst did not start")

    def kill_dunst(self):
        """SIGKILLs dunst (a notification server that crashed)."""
        if self.dunst:
            processes.stop(self.dunst, 0)
            self.dunst = None

    def ctl(self, *args):
        r = subprocess.run(["dunstctl", *args], env=dict(os.environ, **self.env),
                           capture_output=True, text=True, timeout=10)
        return r.stdout.strip()

    def displayed(self):
        count = self.ctl("count", "displayed")
        return int(count) if count.isdigit() else -1

    def wait_displayed(self, n, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.displayed() == n:
                return True
            time.sleep(0.02)
        return False

    def click(self):
        self.ctl("action", "0")

    def close_all(self):
        self.ctl("close-all")

    def activated(self):
        """The running processes this desktop's bus started for an activation (not the bus
        itself, nor the dbus-daemon forks that watch an activated service)."""
        return [pid for pid in processes.marked(MARK, self.dir)
                if pid != self.bus_pid and command_name(pid) != "dbus-daemon"]

    def kill_activated(self):
        """SIGKILLs what the bus activated (a server that hung) and waits until it is gone."""
        return processes.kill(self.activated())

    def stop(self):
        """Ends dunst (SIGTERM), what the bus activated, then the bus (SIGTERM, SIGKILL after
        5 s) and anything still carrying its mark; a second call does nothing."""
        if self.stopped:
            return
        self.stopped = True
        try:
            processes.stop(self.dunst)
            self.dunst = None
            self.kill_activated()
        finally:
            processes.stop_pid(self.bus_pid)
            processes.kill_marked(MARK, self.dir)
            if self.address.startswith("unix:path="):
                remove_stale_socket(self.address[len("unix:path="):].split(",")[0])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Xvfb:
    """An Xvfb server on `display` (":80"), ready once its socket listens. stop() ends it with
    SIGTERM (SIGKILL only if it has not exited after 5 s) and removes the lock file and socket
    it left in /tmp, so no stale display lock outlives the suite."""

    def __init__(self, display, seconds=10.0):
        self.display = display
        number = display.lstrip(":").split(".")[0]
        self.lock = f"/tmp/.X{number}-lock"
        self.socket = f"/tmp/.X11-unix/X{number}"
        self.proc = subprocess.Popen(["Xvfb", display, "-screen", "0", "1024x768x24"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + seconds
        while not (lock_owner(self.lock) == self.proc.pid and listening(self.socket)):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                why = (f"Xvfb {display} did not start (exit {self.proc.poll()}; {self.lock} "
                       f"names pid {lock_owner(self.lock)})")
                self.stop()
                raise RuntimeError(why)
            time.sleep(0.02)

    def stop(self, seconds=5.0):
        """SIGTERM, SIGKILL after `seconds`; then the lock and socket only if they are this
        server's (the lock names its pid, or is gone and nothing listens on the socket)."""
        processes.stop(self.proc, seconds)
        owner = lock_owner(self.lock)
        if owner == self.proc.pid:
            remove(self.lock)
        if owner in (self.proc.pid, None):
            remove_stale_socket(self.socket)


def command_name(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def lock_owner(path):
    """The pid an X display's lock file names, or None (no lock, or not a pid)."""
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def listening(path):
    """True while a process listens on the Unix socket at `path` (/proc/net/unix)."""
    try:
        with open("/proc/net/unix") as f:
            next(f)
            for line in f:
                fields = line.split()
                # Flags 00010000: __SO_ACCEPTCON, a listening socket
                if len(fields) >= 8 and fields[7] == path and int(fields[3], 16) & 0x10000:
                    return True
    except OSError:
        pass
    return False


def remove_stale_socket(path):
    """Removes the socket file at `path` when nothing listens on it any more."""
    if os.path.exists(path) and not listening(path):
        remove(path)


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
