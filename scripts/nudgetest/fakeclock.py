"""A wall clock faked for nudge alone: libfaketime moves CLOCK_REALTIME for the processes it is
preloaded into, and the kernel's "the clock was set" event is delivered for real without moving
the machine's clock.

Why not `date -s`: stepping CLOCK_REALTIME by two hours moves it for every process on the
machine (builds, journald, other test runs, the person's session).

How the step reaches nudge:
  * what it reads: `nudge daemon` runs with libfaketime preloaded (LD_PRELOAD), its offset read
    from a file on every call (FAKETIME_TIMESTAMP_FILE, FAKETIME_NO_CACHE=1), monotonic time and
    file timestamps left real (FAKETIME_DONT_FAKE_MONOTONIC=1, NO_FAKE_STAT=1). The reminders the
    daemon starts inherit its environment, so they read the same clock, as they would after a
    real step. Every other process, this suite and every other `nudge` command included, reads
    the real clock.
  * how it wakes: the daemon sleeps on a real timerfd armed with TFD_TIMER_CANCEL_ON_SET
    (Sources/NudgeLinux/WakeWatch.swift); the kernel cancels it in timerfd_clock_was_set(), and
    only when the offset between CLOCK_MONOTONIC and CLOCK_REALTIME differs from the one the
    timer was armed under (fs/timerfd.c compares ktime_mono_to_real(0) with ctx->moffs). An
    ADJ_SETOFFSET of exactly 0 does go through clock_was_set() but leaves that offset as it was,
    so it wakes nobody (tried on Linux 6.18: adjtimex succeeds, the timerfd stays silent). So
    `announce_clock_set` injects +1 ns and then -1 ns (adjtimex ADJ_SETOFFSET|ADJ_NANO): the
    first cancels every CANCEL_ON_SET timerfd on the machine, the second puts the clock back
    exactly where it was (both are additions to the kernel's xtime, nothing is rounded); between
    the two the clock is 1 ns ahead for a few microseconds. The STA_NANO bit that ADJ_NANO sets
    is cleared again when it was not set before. Like any clock step (`date -s` too), each
    injection resets the kernel's NTP error estimates (ntp_clear); an NTP daemon, if one runs,
    re-estimates them. Needs root (CAP_SYS_TIME); CI runs as root.
"""

import ctypes
import os
import struct
import subprocess
import time

ADJ_SETOFFSET = 0x0100
ADJ_MICRO = 0x1000
ADJ_NANO = 0x2000
STA_NANO = 0x2000


class _Timeval(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_usec", ctypes.c_long)]


class _Timex(ctypes.Structure):
    """struct timex (<sys/timex.h>, x86-64 and other LP64 layouts: 208 bytes)."""
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long),
                ("status", ctypes.c_int), ("constant", ctypes.c_long),
                ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("time", _Timeval), ("tick", ctypes.c_long), ("ppsfreq", ctypes.c_long),
                ("jitter", ctypes.c_long), ("shift", ctypes.c_int), ("stabil", ctypes.c_long),
                ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
                ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int),
                ("_reserved", ctypes.c_int * 11)]


_libc = ctypes.CDLL(None, use_errno=True)


def _adjtimex(modes, seconds=0, nanoseconds=0):
    timex = _Timex(modes=modes)
    timex.time.tv_sec = seconds
    timex.time.tv_usec = nanoseconds  # nanoseconds under ADJ_NANO
    if _libc.adjtimex(ctypes.byref(timex)) < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"adjtimex: {os.strerror(errno)}")
    return timex


def announce_clock_set():
    """Makes the kernel tell every CLOCK_REALTIME timerfd armed with TFD_TIMER_CANCEL_ON_SET
    that the clock was set, leaving the machine's clock where it was (see the module's text)."""
    nano_before = _adjtimex(0).status & STA_NANO
    try:
        _adjtimex(ADJ_SETOFFSET | ADJ_NANO, 0, 1)             # +1 ns: the timerfds wake
        _adjtimex(ADJ_SETOFFSET | ADJ_NANO, -1, 999_999_999)  # -1 ns: back, exactly
    finally:
        if not nano_before:
            _adjtimex(ADJ_MICRO)  # the NTP status as it was


def machine_clock_offset():
    """CLOCK_REALTIME - CLOCK_MONOTONIC in seconds, read tightly (the realtime readings around
    one monotonic reading, the tightest of 50). It changes only when the machine's clock is
    stepped (or slewed by NTP, at most 0.5 ms a second)."""
    best = None
    for _ in range(50):
        a = time.clock_gettime_ns(time.CLOCK_REALTIME)
        m = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        b = time.clock_gettime_ns(time.CLOCK_REALTIME)
        if best is None or b - a < best[0]:
            best = (b - a, (a + b) // 2 - m)
    return best[1] / 1e9


def libfaketime_path():
    """libfaketime.so.1 as Debian's libfaketime package installs it (scripts/install-deps
    --test installs it)."""
    listed = subprocess.run(["dpkg-query", "-L", "libfaketime"], capture_output=True,
                            text=True).stdout.split()
    for path in listed:
        if path.endswith("/libfaketime.so.1") and os.path.exists(path):
            return path
    raise RuntimeError("libfaketime is not installed (scripts/install-deps --test installs it)")


class NudgeClock:
    """The wall clock of the processes started with `environment()`: the real one plus an
    offset kept in a file in `directory`; the rest of the machine never sees the offset.
    `close()` removes the shared objects it made."""

    _made = 0

    def __init__(self, directory):
        self.file = os.path.join(directory, "faketime.rc")
        self.offset = 0
        self._write(0)
        self.library = libfaketime_path()
        NudgeClock._made += 1
        tag = f"nudgetest_{os.getpid()}_{NudgeClock._made}"
        self.semaphore, self.memory = f"/faketime_sem_{tag}", f"/faketime_shm_{tag}"
        self._share()

    def _share(self):
        """Makes the semaphore and shared memory libfaketime keeps its state in, as the
        `faketime` wrapper does, so the library finds them in FAKETIME_SHARED. Without them
        libfaketime makes its own at start-up and setenv()s FAKETIME_SHARED inside the process,
        which moves `environ` off the initial stack, where the Swift runtime looks for argv
        (swift/stdlib CommandLine.cpp, ArgvGrabber): `nudge daemon` would start with no
        arguments at all."""
        _libc.sem_open.restype = ctypes.c_void_p
        _libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
        sem = _libc.sem_open(self.semaphore.encode(), os.O_CREAT | os.O_EXCL, 0o600, 1)
        if sem is None or sem == ctypes.c_void_p(-1).value:  # SEM_FAILED
            errno = ctypes.get_errno()
            raise OSError(errno, f"sem_open {self.semaphore}: {os.strerror(errno)}")
        _libc.sem_close.argtypes = [ctypes.c_void_p]
        _libc.sem_close(sem)
        # struct ft_shared_s (faketime_common.h, 0.9.10): ticks and file_idx 0, then the start
        # times (CLOCK_REALTIME, _MONOTONIC, _MONOTONIC_RAW, _BOOTTIME) "unset" as the
        # wrapper writes them (tv_nsec -1)
        fd = os.open("/dev/shm" + self.memory, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        try:
            os.write(fd, struct.pack("=QQ" + "qq" * 4, 0, 0, 0, -1, 0, -1, 0, -1, 0, 0))
        finally:
            os.close(fd)

    def close(self):
        _libc.sem_unlink.argtypes = [ctypes.c_char_p]
        _libc.sem_unlink(self.semaphore.encode())
        try:
            os.unlink("/dev/shm" + self.memory)
        except FileNotFoundError:
            pass

    def environment(self):
        return {
            "LD_PRELOAD": self.library,
            "FAKETIME_SHARED": f"{self.semaphore} {self.memory}",
            "FAKETIME_TIMESTAMP_FILE": self.file,
            "FAKETIME_NO_CACHE": "1",              # the file is read on every call
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",   # monotonic time goes on, as in a real step
            "NO_FAKE_STAT": "1",                   # a step leaves files' timestamps alone
        }

    def set_to(self, epoch):
        """Sets this clock to read `epoch` (whole seconds) now, waking nobody: for a process
        started after it, whose whole life should be at a fixed time."""
        self._write(int(round(epoch - time.time())))

    def step(self, seconds):
        """Moves this clock by `seconds` and wakes every sleeper that watches for clock steps,
        as `date -s` would, without moving the machine's clock."""
        self._write(self.offset + seconds)
        announce_clock_set()

    def reads(self):
        """What a process under this clock reads (`date +%s.%N` run under the preload)."""
        env = dict(os.environ, **self.environment())
        out = subprocess.run(["date", "+%s.%N"], env=env, capture_output=True, text=True,
                             check=True).stdout
        return float(out)

    def _write(self, offset):
        # libfaketime's relative offset syntax: a sign, then seconds ("+0", "-7200"); written
        # whole and renamed into place so the library never reads half a file
        scratch = self.file + ".new"
        with open(scratch, "w") as f:
            f.write(f"{offset:+d}\n")
        os.replace(scratch, self.file)
        self.offset = offset
