"""A private D-Bus session on an Xvfb display, with dunst (for the cases and scripts/bench)."""

import os
import signal
import subprocess
import tempfile
import time


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
    services in its own folder can be activated (never the system's dunst)."""

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
             "--print-pid=1"], capture_output=True, text=True, check=True).stdout.split()
        self.address, self.bus_pid = out[0], int(out[1])
        self.env = {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": suite.display}
        self.dunst = None

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
        raise RuntimeError("dunst did not start")

    def kill_dunst(self):
        if self.dunst:
            self.dunst.kill()
            self.dunst.wait()
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

    def stop(self):
        self.kill_dunst()
        try:
            os.kill(self.bus_pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
