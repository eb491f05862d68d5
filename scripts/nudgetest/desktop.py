"""The one way the Python suites start a desktop: Xvfb on a display it picks itself, a private
D-Bus session on it, and dunst (the reliability cases, scripts/e2e-sync.py, scripts/bench). The
bash suites have theirs in scripts/lib/e2e.sh (xvfb_start, dbus_start, dunst_start).

    xvfb = Xvfb()                             # xvfb.display: ":N"
    desktop = Desktop(work, xvfb.display)     # desktop.env: its bus address and DISPLAY
    desktop.start_dunst()
    ...
    desktop.stop(); xvfb.stop()
"""

import os
import select
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
    """A private D-Bus session on an X display (an Xvfb's), with dunst when asked; its files in
    a folder of its own under `work`. Only the services in that folder can be activated (never
    the system's dunst): `activatable`, a command the bus starts for
    org.freedesktop.Notifications. stop() (or the end of a `with` block) ends dunst, the bus and
    everything the bus activated."""

    def __init__(self, work, display, activatable=None):
        self.dir = tempfile.mkdtemp(prefix="desktop-", dir=work)
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
        self.env = {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": display}
        self.dunst = None
        self.stopped = False

    def start_dunst(self, action="open"):
        """Starts dunst on the bus, a click on nudge's notifications mapped to `action`;
        returns once it answers dunstctl (5 s at most, else RuntimeError)."""
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
        """dunstctl ARGS on this desktop's bus: its output, stripped."""
        r = subprocess.run(["dunstctl", *args], env=dict(os.environ, **self.env),
                           capture_output=True, text=True, timeout=10)
        return r.stdout.strip()

    def displayed(self):
        """How many notifications dunst displays (-1 when it does not answer)."""
        count = self.ctl("count", "displayed")
        return int(count) if count.isdigit() else -1

    def wait_displayed(self, n, seconds):
        """True once dunst displays `n` notifications, False after `seconds` without."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.displayed() == n:
                return True
            time.sleep(0.02)
        return False

    def click(self):
        """Clicks the newest notification (its default action)."""
        self.ctl("action", "0")

    def close_all(self):
        """Closes every notification dunst displays."""
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
    """An Xvfb server on a display it picks itself (-displayfd: the first one whose socket it
    can take, never one another server holds), ready once its socket listens; `display` names
    it (":N"). stop() ends it with SIGTERM (SIGKILL only if it has not exited after 5 s) and
    removes the socket file it left in /tmp/.X11-unix (and a lock file naming it: a server
    started with -displayfd writes none), so nothing stale outlives the suite."""

    def __init__(self, screen="1024x768x24", seconds=10.0):
        self.display = self.lock = self.socket = None
        read_end, write_end = os.pipe()
        try:
            try:
                self.proc = subprocess.Popen(
                    ["Xvfb", "-displayfd", str(write_end), "-screen", "0", screen,
                     "-nolisten", "tcp"],
                    pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            finally:
                os.close(write_end)  # Xvfb's alone now: its exit ends the read below
            # Xvfb writes the display's number, then a newline, once it listens
            number = read_display_number(read_end, seconds)
        finally:
            os.close(read_end)
        if number is None:
            self.stop()
            raise RuntimeError(f"Xvfb did not start (exit {self.proc.poll()}: no display "
                               f"number within {seconds:.0f} s)")
        self.display = f":{number}"
        self.lock = f"/tmp/.X{number}-lock"
        self.socket = f"/tmp/.X11-unix/X{number}"
        deadline = time.monotonic() + seconds
        while not listening(self.socket):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                why = (f"Xvfb {self.display} did not start (exit {self.proc.poll()}; nothing "
                       f"listens on {self.socket})")
                self.stop()
                raise RuntimeError(why)
            time.sleep(0.02)

    def stop(self, seconds=5.0):
        """SIGTERM, SIGKILL after `seconds`; then its socket file once nothing listens on it,
        and a lock file only if it names this server's pid."""
        processes.stop(self.proc, seconds)
        if self.display is None:  # it never said its display
            return
        if lock_owner(self.lock) == self.proc.pid:
            remove(self.lock)
        remove_stale_socket(self.socket)


def read_display_number(fd, seconds):
    """The display number Xvfb writes to `fd` (-displayfd), or None when it writes none within
    `seconds` (or exits first)."""
    deadline = time.monotonic() + seconds
    text = b""
    while not text.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 64)
        if not chunk:  # it exited
            return None
        text += chunk
    return int(text) if text.strip().isdigit() else None


def command_name(pid):
    """The command name of `pid` (its /proc comm), or "" when it is gone."""
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
