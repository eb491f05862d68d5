"""Two real Syncthing instances on this machine sharing one folder, for end-to-end sync tests.

Syncthing (Debian 12's `syncthing`, 1.19.x) must be installed: CI installs it; locally
`apt-get install -y syncthing`. Everything stays on 127.0.0.1: each instance has its own home
(config, keys, database) under the caller's `base_dir`, its GUI/REST API and its sync listener
on ports of their own, and it knows the other by device id at a fixed address. Discovery
(global and local), relays, NAT traversal, crash and usage reporting and upgrades are all off.

    pair = SyncthingPair(base, folder_a, folder_b)
    pair.start()                        # both running, REST answering, connected
    ...write into folder_a...
    assert pair.wait_in_sync(30)        # both idle, both folders hold the same files
    pair.stop_one(1)                    # B offline; work; pair.start_one(1) brings it back
    pair.stop()

Only the standard library is used. Each instance logs to `base_dir/syncthing-a.log` (or -b).
"""

import copy
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

FOLDER_ID = "nudge"
NAMES = ("a", "b")

# Environment variables that would change where Syncthing looks or what it does; never passed on.
_DROPPED_ENV = (
    "STTRACE", "STGUIADDRESS", "STGUIAPIKEY", "STGUIASSETS", "STHOMEDIR", "STCONFDIR",
    "STDATADIR", "STMONITORED", "STPROFILER", "STCPUPROFILE", "STHEAPPROFILE", "STBLOCKPROFILE",
    "STPERFSTATS", "STDEADLOCKTIMEOUT", "STLOCKTHRESHOLD", "STNOUPGRADE", "STNORESTART",
    "STNODEFAULTFOLDER", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy", "HTTPS_PROXY",
    "https_proxy",
)

# Our REST calls go straight to 127.0.0.1, whatever proxy the environment names.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class SyncthingError(RuntimeError):
    """Syncthing could not be set up, started or asked something; the message says why (with
    the tail of the instance's log when there is one)."""


def syncthing_binary():
    """The path of the `syncthing` program; raises SyncthingError when it is not installed."""
    path = shutil.which("syncthing")
    if path is None:
        raise SyncthingError("syncthing is not installed (apt-get install -y syncthing)")
    return path


def syncthing_version():
    """The first line of `syncthing --version`, e.g. 'syncthing v1.19.2-ds1 "Fermium Flea" ...'."""
    out = subprocess.run([syncthing_binary(), "--version"], capture_output=True, text=True,
                         timeout=30)
    return (out.stdout or out.stderr).strip().splitlines()[0]


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree(folder):
    """The synced content of `folder`: {relative path: sha256 of the bytes} of its regular
    files, walking subfolders. Skipped: anything whose name starts with a dot at any level
    (`.stfolder`, `.stversions`, `.stignore`, `.syncthing.*.tmp` and other dotfiles)."""
    found = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.startswith("."):
                continue
            full = os.path.join(root, name)
            if not os.path.isfile(full) or os.path.islink(full):
                continue
            try:
                with open(full, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                continue  # removed or replaced while we looked: the next look sees it
            found[os.path.relpath(full, folder)] = digest
    return found


def tree_difference(tree_a, tree_b):
    """A short description of how two `tree()` results differ ('' when they are the same)."""
    parts = []
    only_a = sorted(set(tree_a) - set(tree_b))
    only_b = sorted(set(tree_b) - set(tree_a))
    differ = sorted(p for p in set(tree_a) & set(tree_b) if tree_a[p] != tree_b[p])
    if only_a:
        parts.append("only in A: " + ", ".join(only_a))
    if only_b:
        parts.append("only in B: " + ", ".join(only_b))
    if differ:
        parts.append("different: " + ", ".join(differ))
    return "; ".join(parts)


class Instance:
    """One Syncthing: its home, ports, API key, device id, folder path, log and process."""

    def __init__(self, name, home, folder, log):
        """Names the instance ('a' or 'b'); nothing is created or started yet."""
        self.name = name
        self.home = home
        self.folder = folder
        self.log = log
        self.gui_port = 0
        self.sync_port = 0
        self.apikey = secrets.token_urlsafe(24)
        self.device_id = None
        self.proc = None

    @property
    def url(self):
        """The base URL of the REST API."""
        return f"http://127.0.0.1:{self.gui_port}"

    @property
    def listen(self):
        """The sync protocol address this instance listens on and the other dials."""
        return f"tcp://127.0.0.1:{self.sync_port}"

    def running(self):
        """True while the process we started has not exited."""
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, lines=30):
        """The last `lines` lines of the instance's log, as one string."""
        try:
            with open(self.log, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 64 * 1024))
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


class SyncthingPair:
    """Two Syncthing instances, A (index 0) and B (index 1), sharing folder `FOLDER_ID`:
    A's copy at `folder_a`, B's at `folder_b`. Homes and logs go in `base_dir`."""

    def __init__(self, base_dir, folder_a, folder_b, folder_id=FOLDER_ID, rescan_s=5,
                 watcher_delay_s=1):
        """Records where things go; `start()` creates the configs and runs both."""
        self.base_dir = os.path.abspath(base_dir)
        self.folder_id = folder_id
        self.rescan_s = rescan_s
        self.watcher_delay_s = watcher_delay_s
        self.binary = syncthing_binary()
        self.instances = [
            Instance(name, os.path.join(self.base_dir, f"syncthing-{name}"),
                     os.path.abspath(folder), os.path.join(self.base_dir, f"syncthing-{name}.log"))
            for name, folder in zip(NAMES, (folder_a, folder_b))
        ]
        self._configured = False
        self.last_problem = ""  # what the last wait_in_sync() found still wrong

    # Context manager: `with SyncthingPair(...) as pair:` starts both and always stops them.

    def __enter__(self):
        """Starts both instances (see `start`)."""
        self.start()
        return self

    def __exit__(self, *exc):
        """Stops both instances."""
        self.stop()
        return False

    # Setup.

    def _env(self, inst):
        """The environment a Syncthing runs with: no upgrades, no restarts, no default folder,
        HOME inside its own home directory, no proxies."""
        env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
        env.update(HOME=inst.home, STNODEFAULTFOLDER="1", STNOUPGRADE="1", STNORESTART="1",
                   LC_ALL="C")
        return env

    def _generate(self, inst):
        """Creates the instance's home with keys and a fresh config.xml (`syncthing generate`),
        once, and reads its device id."""
        if not os.path.exists(os.path.join(inst.home, "config.xml")):
            os.makedirs(inst.home, mode=0o700, exist_ok=True)
            out = subprocess.run(
                [self.binary, "generate", f"--home={inst.home}", "--no-default-folder",
                 "--skip-port-probing"],
                env=self._env(inst), capture_output=True, text=True, timeout=120)
            if out.returncode != 0:
                raise SyncthingError(f"syncthing generate for {inst.name} failed "
                                     f"({out.returncode}): {out.stdout}{out.stderr}")
        out = subprocess.run([self.binary, "serve", f"--home={inst.home}", "--device-id"],
                             env=self._env(inst), capture_output=True, text=True, timeout=60)
        device_id = out.stdout.strip().splitlines()[0] if out.stdout.strip() else ""
        if out.returncode != 0 or len(device_id) != 63 or device_id.count("-") != 7:
            raise SyncthingError(f"syncthing --device-id for {inst.name} failed "
                                 f"({out.returncode}): {out.stdout}{out.stderr}")
        inst.device_id = device_id

    def _prepare_folder(self, inst):
        """Makes the instance's folder (mode 0700) with its `.stfolder` marker, so Syncthing
        neither refuses the folder nor creates it with modes of its own."""
        os.makedirs(inst.folder, mode=0o700, exist_ok=True)
        os.chmod(inst.folder, 0o700)
        os.makedirs(os.path.join(inst.folder, ".stfolder"), mode=0o700, exist_ok=True)

    def _write_config(self, inst, other):
        """Rewrites the instance's config.xml: GUI and listener on its ports, everything that
        reaches out beyond 127.0.0.1 off, `other` as the only peer (fixed address), and the
        shared folder with a fast watcher and rescan."""
        path = os.path.join(inst.home, "config.xml")
        doc = ET.parse(path)
        root = doc.getroot()

        def set_text(parent, tag, value):
            """Sets (creating if missing) `parent`'s child `tag` to `value`."""
            el = parent.find(tag)
            if el is None:
                el = ET.SubElement(parent, tag)
            el.text = str(value)
            return el

        gui = root.find("gui")
        gui.set("enabled", "true")
        gui.set("tls", "false")
        set_text(gui, "address", f"127.0.0.1:{inst.gui_port}")
        set_text(gui, "apikey", inst.apikey)

        opts = root.find("options")
        for el in opts.findall("listenAddress"):
            opts.remove(el)
        set_text(opts, "listenAddress", inst.listen)
        for tag, value in (
            ("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"),
            ("relaysEnabled", "false"), ("natEnabled", "false"), ("startBrowser", "false"),
            ("urAccepted", "-1"), ("urSeen", "3"), ("crashReportingEnabled", "false"),
            ("autoUpgradeIntervalH", "0"), ("restartOnWakeup", "false"),
            ("announceLANAddresses", "false"), ("stunKeepaliveStartS", "0"),
            ("reconnectionIntervalS", "2"), ("setLowPriority", "false"),
            ("progressUpdateIntervalS", "1"),
        ):
            set_text(opts, tag, value)
        disk = set_text(opts, "minHomeDiskFree", "0")
        disk.set("unit", "%")
        for el in opts.findall("unackedNotificationID"):
            opts.remove(el)

        defaults = root.find("defaults")
        template_device = defaults.find("device")
        template_folder = defaults.find("folder")

        for el in root.findall("device") + root.findall("folder"):
            root.remove(el)
        insert_at = 0
        for dev, is_self in ((inst, True), (other, False)):
            el = copy.deepcopy(template_device)
            el.set("id", dev.device_id)
            el.set("name", f"nudge-test-{dev.name}")
            el.set("introducer", "false")
            for addr in el.findall("address"):
                el.remove(addr)
            addr = ET.Element("address")
            addr.text = "dynamic" if is_self else dev.listen
            el.insert(0, addr)
            set_text(el, "autoAcceptFolders", "false")
            set_text(el, "paused", "false")
            root.insert(insert_at, el)
            insert_at += 1

        folder = copy.deepcopy(template_folder)
        folder.attrib.update({
            "id": self.folder_id, "label": self.folder_id, "path": inst.folder,
            "type": "sendreceive", "rescanIntervalS": str(self.rescan_s),
            "fsWatcherEnabled": "true", "fsWatcherDelayS": str(self.watcher_delay_s),
            "ignorePerms": "false", "autoNormalize": "true",
        })
        for el in folder.findall("device"):
            folder.remove(el)
        for pos, dev in enumerate((inst, other)):
            el = ET.Element("device", {"id": dev.device_id, "introducedBy": ""})
            set_text(el, "encryptionPassword", "")
            folder.insert(1 + pos, el)
        set_text(folder, "markerName", ".stfolder")
        set_text(folder, "paused", "false")
        fdisk = set_text(folder, "minDiskFree", "0")
        fdisk.set("unit", "%")
        root.insert(insert_at, folder)

        ET.indent(doc, space="    ")
        doc.write(path, encoding="unicode")
        os.chmod(path, 0o600)

    def _configure(self):
        """Generates both homes, picks four free ports and writes both configs."""
        os.makedirs(self.base_dir, exist_ok=True)
        for inst in self.instances:
            self._generate(inst)
            self._prepare_folder(inst)
        ports = set()
        while len(ports) < 4:
            ports.add(free_port())
        ports = sorted(ports)
        for i, inst in enumerate(self.instances):
            inst.gui_port, inst.sync_port = ports[2 * i], ports[2 * i + 1]
        a, b = self.instances
        self._write_config(a, b)
        self._write_config(b, a)
        self._configured = True

    # Running.

    def start(self, timeout=60.0):
        """Configures both instances (the first time), starts them, and returns once both
        REST APIs answer, both listen, and the two are connected. A port taken between our
        choosing it and Syncthing binding it is retried with new ports (up to 3 times).
        Raises SyncthingError (with log tails) on failure."""
        for attempt in range(3):
            if not self._configured or attempt > 0:
                self._configure()
            try:
                for i in range(2):
                    self._launch(i, timeout)
                break
            except SyncthingError as e:
                self.stop()
                if "address already in use" not in str(e) or attempt == 2:
                    raise
        if not self.wait_connected(timeout):
            raise SyncthingError(f"A and B did not connect within {timeout:.0f} s\n"
                                 + self._tails())

    def start_one(self, i, timeout=60.0):
        """Starts instance `i` (0 = A, 1 = B) again with its existing config; returns once its
        REST API answers and, when the other one runs, once the two are connected."""
        if not self._configured:
            raise SyncthingError("start() the pair before start_one()")
        self._launch(i, timeout)
        if self.instances[1 - i].running() and not self.wait_connected(timeout):
            raise SyncthingError(f"A and B did not connect within {timeout:.0f} s after "
                                 f"restarting {NAMES[i].upper()}\n" + self._tails())

    def _launch(self, i, timeout):
        """Starts instance `i`'s process (logging to its log file) and waits until its REST API
        answers with our key and its sync listener is up."""
        inst = self.instances[i]
        if inst.running():
            return
        self._prepare_folder(inst)
        with open(inst.log, "ab") as log:
            log.write(f"\n===== nudgetest: starting syncthing {inst.name} at "
                      f"{time.strftime('%H:%M:%S')} =====\n".encode())
            log.flush()
            inst.proc = subprocess.Popen(
                [self.binary, "serve", f"--home={inst.home}", "--no-browser", "--no-restart",
                 "--no-upgrade", "--no-default-folder", "--logflags=3"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=self._env(inst), cwd=inst.home, start_new_session=True)
        deadline = time.monotonic() + timeout
        last = "no answer yet"
        while time.monotonic() < deadline:
            if not inst.running():
                raise SyncthingError(
                    f"syncthing {inst.name} exited ({inst.proc.returncode}) while starting\n"
                    + self._tail(i))
            try:
                status = self.api(i, "GET", "/rest/system/status", timeout=2)
            except SyncthingError as e:
                if "HTTP 403" in str(e):  # someone else's Syncthing on that port
                    self.stop_one(i)
                    raise SyncthingError(f"syncthing {inst.name}: {e}\n" + self._tail(i)) from e
                last = str(e)
                time.sleep(0.2)
                continue
            if status.get("myID") != inst.device_id:
                self.stop_one(i)
                raise SyncthingError(f"syncthing {inst.name} at {inst.url} is device "
                                     f"{status.get('myID')}, not {inst.device_id}")
            listener = (status.get("connectionServiceStatus") or {}).get(inst.listen) or {}
            if listener.get("error"):
                last = f"listener {inst.listen}: {listener['error']}"
                if "address already in use" in listener["error"]:
                    self.stop_one(i)
                    raise SyncthingError(f"syncthing {inst.name}: {last}\n" + self._tail(i))
            elif listener.get("lanAddresses"):
                return
            else:
                last = f"listener {inst.listen} not up yet"
            time.sleep(0.2)
        self.stop_one(i)
        raise SyncthingError(f"syncthing {inst.name} not ready within {timeout:.0f} s "
                             f"({last})\n" + self._tail(i))

    def stop_one(self, i, seconds=15.0):
        """Stops instance `i`: SIGTERM to its process group, up to `seconds` to exit cleanly
        (closing its database), then SIGKILL; reaps it. Nothing happens if it is not running.
        The group matters: even with --no-restart, 1.19 runs as a monitor process (the one we
        started) with the real Syncthing as its child."""
        inst = self.instances[i]
        proc = inst.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything left in its group, the process too
        except ProcessLookupError:
            pass
        proc.wait()
        inst.proc = None

    def stop(self):
        """Stops both instances (see `stop_one`)."""
        for i in range(2):
            self.stop_one(i)

    def running(self, i):
        """True while instance `i` runs."""
        return self.instances[i].running()

    # REST.

    def api(self, i, method, path, params=None, timeout=10.0):
        """Calls instance `i`'s REST API (X-API-Key header) and returns the decoded JSON
        (None for an empty body). Raises SyncthingError on any failure."""
        inst = self.instances[i]
        url = inst.url + path
        if params:
            url += "?" + urllib.parse.urlencode(params)
        req = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None,
                                     headers={"X-API-Key": inst.apikey})
        try:
            with _OPENER.open(req, timeout=timeout) as resp:
                body = resp.read()
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace").strip()
            raise SyncthingError(f"{method} {path} on {inst.name}: HTTP {e.code} {detail}") from e
        except (urllib.error.URLError, OSError) as e:
            raise SyncthingError(f"{method} {path} on {inst.name}: {e}") from e
        if not body.strip():
            return None
        try:
            return json.loads(body)
        except ValueError:
            return body.decode("utf-8", "replace")

    def rescan(self, i):
        """Asks instance `i` to rescan the folder now (POST /rest/db/scan). Returns when the
        scan is over (Syncthing answers then)."""
        self.api(i, "POST", "/rest/db/scan", {"folder": self.folder_id}, timeout=60)

    def folder_status(self, i):
        """Instance `i`'s GET /rest/db/status for the folder (state, needTotalItems, ...)."""
        return self.api(i, "GET", "/rest/db/status", {"folder": self.folder_id})

    def connected(self):
        """True when both run and each reports the other as connected."""
        try:
            for i in range(2):
                other = self.instances[1 - i].device_id
                conns = self.api(i, "GET", "/rest/system/connections", timeout=5)
                if not (conns.get("connections") or {}).get(other, {}).get("connected"):
                    return False
        except SyncthingError:
            return False
        return True

    def wait_connected(self, timeout=30.0):
        """Waits up to `timeout` seconds for `connected()`; returns whether it came."""
        deadline = time.monotonic() + timeout
        while True:
            if self.connected():
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.2)

    def sync_problem(self):
        """Why the pair is not in sync right now, in words; '' when it is: both run and are
        connected, both report the folder idle with nothing needed and no errors, each sees
        the other's copy complete, and both folders hold the same files with the same bytes."""
        if not all(inst.running() for inst in self.instances):
            return "not both running"
        if not self.connected():
            return "not connected"
        try:
            for i, inst in enumerate(self.instances):
                st = self.folder_status(i)
                if st.get("state") != "idle":
                    return f"{inst.name} is {st.get('state')}"
                if st.get("needTotalItems", 0) or st.get("pullErrors", 0) or st.get("errors", 0):
                    return (f"{inst.name} needs {st.get('needTotalItems')} items, "
                            f"{st.get('pullErrors')} pull errors")
                other = self.instances[1 - i].device_id
                comp = self.api(i, "GET", "/rest/db/completion",
                                {"folder": self.folder_id, "device": other})
                if comp.get("completion", 0) < 100 or comp.get("needItems", 0):
                    return f"{inst.name} sees the other at {comp.get('completion')}%"
        except SyncthingError as e:
            return str(e)
        a, b = (tree(inst.folder) for inst in self.instances)
        return tree_difference(a, b)

    def wait_in_sync(self, timeout=60.0, settle=0.5):
        """Waits up to `timeout` seconds until `sync_problem()` is '' twice in a row, `settle`
        seconds apart (so a change noticed meanwhile is not missed); returns True then, False
        on timeout (`self.last_problem` says what was still wrong)."""
        deadline = time.monotonic() + timeout
        self.last_problem = "not checked"
        ok_once = False
        while True:
            self.last_problem = self.sync_problem()
            if not self.last_problem:
                if ok_once:
                    return True
                ok_once = True
                time.sleep(settle)
                continue
            ok_once = False
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.25)

    # Diagnostics.

    def _tail(self, i, lines=30):
        """The tail of instance `i`'s log, labelled, for error messages."""
        inst = self.instances[i]
        return f"--- tail of {inst.log} ---\n{inst.log_tail(lines)}"

    def _tails(self, lines=20):
        """Both logs' tails, for error messages."""
        return "\n".join(self._tail(i, lines) for i in range(2))

    def describe(self):
        """Ports, device ids and folders of both instances, one line each."""
        return "\n".join(
            f"{inst.name}: gui {inst.url} listen {inst.listen} id {inst.device_id} "
            f"folder {inst.folder} home {inst.home}" for inst in self.instances)
