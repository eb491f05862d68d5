#!/usr/bin/python3
"""A pointer for a headless wlroots compositor (sway), as a person's mouse would be: a client of
the compositor's zwlr_virtual_pointer_v1 (spoken on the Wayland socket directly, no library),
so clients get a real wl_pointer with enter, motion and button events.

    wl-pointer.py WIDTH HEIGHT < COMMANDS

reads lines from stdin, each "click X Y left|right|middle" or "move X Y", and prints "done"
once the compositor has taken each (a round trip). The device lives as long as this process:
start it once, before the clicks, so the clients have bound the seat's pointer by then.
"""
import os
import socket
import struct
import sys
import time

BUTTONS = {"left": 0x110, "right": 0x111, "middle": 0x112}


class Wayland:
    def __init__(self):
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ.get("WAYLAND_DISPLAY", "wayland-0"))
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 2
        self.buffer = b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, obj, opcode, payload=b""):
        self.sock.sendall(struct.pack("<II", obj, ((8 + len(payload)) << 16) | opcode) + payload)

    @staticmethod
    def string(text):
        data = text.encode() + b"\0"
        return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)

    def events(self):
        """Reads one batch of events: (object, opcode, payload) each."""
        chunk = self.sock.recv(65536)
        if not chunk:
            sys.exit("wl-pointer: the compositor closed the connection")
        self.buffer += chunk
        while len(self.buffer) >= 8:
            obj, word = struct.unpack("<II", self.buffer[:8])
            size = word >> 16
            if len(self.buffer) < size:
                break
            yield obj, word & 0xFFFF, self.buffer[8:size]
            self.buffer = self.buffer[size:]

    def roundtrip(self, on_event=None):
        callback = self.new_id()
        self.send(1, 0, struct.pack("<I", callback))  # wl_display.sync
        while True:
            for obj, opcode, payload in self.events():
                if obj == 1 and opcode == 0:  # wl_display.error
                    sys.exit(f"wl-pointer: protocol error {payload!r}")
                if obj == callback:
                    return
                if on_event:
                    on_event(obj, opcode, payload)


def main():
    width, height = int(sys.argv[1]), int(sys.argv[2])
    wl = Wayland()
    registry = wl.new_id()
    wl.send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    globals_ = {}

    def on_event(obj, opcode, payload):
        if obj == registry and opcode == 0:  # wl_registry.global
            name, length = struct.unpack("<II", payload[:8])
            interface = payload[8:8 + length - 1].decode()
            version = struct.unpack("<I", payload[8 + length + (-length % 4):][:4])[0]
            globals_[interface] = (name, version)

    wl.roundtrip(on_event)
    if "zwlr_virtual_pointer_manager_v1" not in globals_:
        sys.exit("wl-pointer: the compositor has no zwlr_virtual_pointer_manager_v1")
    name, _ = globals_["zwlr_virtual_pointer_manager_v1"]
    manager = wl.new_id()
    wl.send(registry, 0, struct.pack("<I", name) + wl.string("zwlr_virtual_pointer_manager_v1")
            + struct.pack("<II", 1, manager))  # wl_registry.bind
    pointer = wl.new_id()
    wl.send(manager, 0, struct.pack("<II", 0, pointer))  # create_virtual_pointer(seat: default)
    wl.roundtrip()
    print("ready", flush=True)

    def stamp():
        return int(time.monotonic() * 1000) & 0xFFFFFFFF

    def move(x, y):
        wl.send(pointer, 1, struct.pack("<IIIII", stamp(), x, y, width, height))  # motion_absolute
        wl.send(pointer, 4)  # frame

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        x, y = int(words[1]), int(words[2])
        move(x, y)
        if words[0] == "click":
            button = BUTTONS[words[3]]
            for state in (1, 0):
                wl.send(pointer, 2, struct.pack("<III", stamp(), button, state))  # button
                wl.send(pointer, 4)
        wl.roundtrip()
        print("done", flush=True)


main()
