#!/usr/bin/env python3
"""Protocol conformance test for zyx-tt-runtime, written from docs/protocol.md alone.

Standard library only. Usage: conformance.py /path/to/zyx-tt-runtime [runtime arguments...]
(e.g. --target metal: every runtime the test starts gets them). Prints one line per check and
"N passed, N failed"; exits non-zero when a check fails.
"""
import json
import mmap
import os
import select
import subprocess
import sys
import tempfile
import time

RUNTIME = sys.argv[1] if len(sys.argv) > 1 else "zyx-tt-runtime"
TARGET_ARGS = tuple(sys.argv[2:])
METAL = "--target" in TARGET_ARGS and TARGET_ARGS[TARGET_ARGS.index("--target") + 1] == "metal"
# Arguments that keep the target from starting, and a word its reason then contains: an unknown
# emulator preset, or a chip the metal target does not have.
BAD_TARGET = (("--device-id", "7"), "7") if METAL else (("--preset", "no-such-chip"), "no-such-chip")
passed = 0
failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


class Runtime:
    """One runtime process; requests are JSON lines on stdin, responses JSON lines on stdout."""

    def __init__(self, *args):
        # Each runtime takes its device's lock at start: a private lock directory keeps this
        # test's runtimes apart from every other runtime on the machine.
        args = (*TARGET_ARGS, *args)
        if "--lock-dir" not in args:
            args = (*args, "--lock-dir", tempfile.mkdtemp(prefix="zyx-conformance-lock-"))
        self.proc = subprocess.Popen([RUNTIME, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buf = b""

    def send(self, obj_or_text, raw=b""):
        line = obj_or_text if isinstance(obj_or_text, (bytes, str)) else json.dumps(obj_or_text)
        if isinstance(line, str):
            line = line.encode()
        self.proc.stdin.write(line + b"\n" + raw)
        self.proc.stdin.flush()

    def receive(self, timeout=30.0):
        deadline = time.time() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError("no response")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("runtime closed stdout")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def request(self, obj_or_text, raw=b""):
        self.send(obj_or_text, raw)
        return self.receive()

    def close(self):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        return self.proc.wait(timeout=10)


def is_error(resp, status):
    return resp.get("ok") is False and resp.get("error", {}).get("status") == status and \
        isinstance(resp["error"].get("message"), str) and resp["error"]["message"] != ""


def make_arena(size):
    """A POSIX shm object created 0600 with O_EXCL, as §3 arena_map asks (Linux: /dev/shm)."""
    name = f"/zyx-conformance-{os.getpid()}-{time.monotonic_ns()}"
    fd = os.open("/dev/shm" + name, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    os.ftruncate(fd, size)
    return name, fd, mmap.mmap(fd, size)


def main():
    rt = Runtime("--raw-timeout-ms", "300")

    # ---- handshake ----------------------------------------------------------------------------
    check("ping before hello", rt.request({"cmd": "ping", "seq": 1}) == {"ok": True, "seq": 1})
    check("alloc before hello is refused", is_error(rt.request({"cmd": "alloc_buf", "bytes": 8}), "protocol"))
    check("wrong version is refused", is_error(rt.request({"cmd": "hello", "version": 2}), "protocol"))
    hello = rt.request({"cmd": "hello", "version": 1, "seq": 2})
    dev = hello.get("device", {})
    check("hello answers version 1", hello.get("ok") is True and hello.get("version") == 1 and hello.get("seq") == 2, hello)
    check("hello reports target and pid", isinstance(hello.get("target"), str) and isinstance(hello.get("pid"), int))
    check("hello reports the device", all(k in dev for k in
          ("name", "arch", "grid", "dram_bytes", "dram_banks", "dram_alignment", "l1_bytes", "num_cbs", "data_formats")), dev)
    rows, cols = dev["grid"]["rows"], dev["grid"]["cols"]
    check("grid is positive", rows > 0 and cols > 0)

    # ---- arena --------------------------------------------------------------------------------
    name, fd, arena = make_arena(1 << 20)
    check("arena_map", rt.request({"cmd": "arena_map", "name": name, "bytes": 1 << 20}).get("ok") is True)
    os.unlink("/dev/shm" + name)  # the runtime keeps it open; nothing stays behind

    # ---- buffers ------------------------------------------------------------------------------
    a = rt.request({"cmd": "alloc_buf", "bytes": 100000, "page_bytes": 2048})
    check("alloc_buf", a.get("ok") is True and isinstance(a.get("buffer"), int) and a["buffer"] != 0
          and isinstance(a.get("address"), int) and a.get("page_bytes") == 2048, a)
    buf = a["buffer"]
    data = bytes((i * 13 + 1) & 0xFF for i in range(100000))
    arena[0:100000] = data
    # Pipelined: two writes in flight, answered in order with their seq.
    rt.send({"cmd": "write_buf", "seq": 10, "buffer": buf, "offset": 0, "bytes": 60000, "arena_offset": 0})
    rt.send({"cmd": "write_buf", "seq": 11, "buffer": buf, "offset": 60000, "bytes": 40000, "arena_offset": 60000})
    r10, r11 = rt.receive(), rt.receive()
    check("pipelined write_buf answered in order", r10 == {"ok": True, "seq": 10} and r11 == {"ok": True, "seq": 11}, (r10, r11))
    arena[200000:300000] = b"\0" * 100000
    check("read_buf", rt.request({"cmd": "read_buf", "buffer": buf, "bytes": 100000, "arena_offset": 200000}).get("ok") is True)
    check("data round-trips", arena[200000:300000] == data)
    check("read_buf at an offset", rt.request({"cmd": "read_buf", "buffer": buf, "offset": 99990, "bytes": 10,
                                               "arena_offset": 500000})["ok"] and arena[500000:500010] == data[99990:])

    # arena_resize: grow the object, remap both sides.
    os.ftruncate(fd, 2 << 20)
    arena.close()
    arena = mmap.mmap(fd, 2 << 20)
    check("arena_resize", rt.request({"cmd": "arena_resize", "bytes": 2 << 20}).get("ok") is True)
    arena[(1 << 20) + 5:(1 << 20) + 105] = b"\x7f" * 100
    check("write past the old arena size",
          rt.request({"cmd": "write_buf", "buffer": buf, "bytes": 100, "arena_offset": (1 << 20) + 5}).get("ok") is True)

    b = rt.request({"cmd": "alloc_buf", "bytes": 100000})["buffer"]
    check("copy_buf", rt.request({"cmd": "copy_buf", "src": buf, "dst": b, "bytes": 100000}).get("ok") is True)
    rt.request({"cmd": "read_buf", "buffer": b, "bytes": 100000, "arena_offset": 0})
    check("copy_buf copied", arena[0:100] == b"\x7f" * 100 and arena[100:100000] == data[100:])

    # ---- errors: each answered with its status, the runtime keeps serving ----------------------
    errors = [
        ("malformed JSON", '{"cmd":"ping"', b"", "protocol"),
        ("unknown command", {"cmd": "launch_missiles"}, b"", "protocol"),
        ("missing field", {"cmd": "alloc_buf"}, b"", "protocol"),
        ("ill-typed field", {"cmd": "alloc_buf", "bytes": "8"}, b"", "protocol"),
        ("unknown field", {"cmd": "alloc_buf", "bytes": 8, "size": 8}, b"", "protocol"),
        ("zero-size allocation", {"cmd": "alloc_buf", "bytes": 0}, b"", "memory_allocation"),
        ("allocation beyond DRAM", {"cmd": "alloc_buf", "bytes": dev["dram_bytes"] + 1}, b"", "memory_allocation"),
        ("free unknown buffer", {"cmd": "free_buf", "buffer": 424242}, b"", "memory_deallocation"),
        ("write unknown buffer", {"cmd": "write_buf", "buffer": 424242, "bytes": 1}, b"", "memory_copy_h2p"),
        ("read unknown buffer", {"cmd": "read_buf", "buffer": 424242, "bytes": 1}, b"", "memory_copy_p2h"),
        ("write beyond buffer", {"cmd": "write_buf", "buffer": buf, "bytes": 100001}, b"", "memory_copy_h2p"),
        ("read beyond arena", {"cmd": "read_buf", "buffer": buf, "bytes": 16, "arena_offset": (2 << 20) - 8}, b"", "memory_copy_p2h"),
        ("run unknown program", {"cmd": "run", "program": 999}, b"", "kernel_launch"),
        ("release unknown program", {"cmd": "release_program", "program": 999}, b"", "kernel_launch"),
        ("arena not 0600", None, b"", "invalid_argument"),
        ("page larger than l1_bytes", {"cmd": "alloc_buf", "bytes": 4, "page_bytes": dev["l1_bytes"] + 4}, b"", "invalid_argument"),
        ("duplicate key", '{"cmd":"ping","cmd":"exit"}', b"", "protocol"),
    ]
    for label, req, raw, status in errors:
        if req is None:  # an object others could read
            bad = f"/zyx-conformance-open-{os.getpid()}"
            bfd = os.open("/dev/shm" + bad, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            os.fchmod(bfd, 0o644)
            os.ftruncate(bfd, 4096)
            req = {"cmd": "arena_map", "name": bad, "bytes": 4096}
            resp = rt.request(req)
            os.unlink("/dev/shm" + bad)
            os.close(bfd)
        else:
            resp = rt.request(req, raw)
        check(f"error: {label} -> {status}", is_error(resp, status), resp)
        check(f"still serving after: {label}", rt.request({"cmd": "ping"}) == {"ok": True})

    resp = rt.request({"cmd": "alloc_buf", "seq": 77, "bytes": "x"})
    check("seq echoed on errors", resp.get("seq") == 77 and is_error(resp, "protocol"), resp)

    quoted = 'kern"el\nname\\'
    resp = rt.request({"cmd": "compile_program", "grid": {"rows": 1, "cols": 1},
                       "kernels": [{"name": quoted, "kind": "warp", "source_bytes": 1}]}, b"x\n")
    check("quotes and newlines come back intact", is_error(resp, "invalid_argument") and quoted in resp["error"]["message"], resp)

    # §2: whether a line is compile_program is decided from its parsed JSON; the sources of a
    # refused one are skipped, never answered or obeyed.
    looks_like_requests = b'{"cmd":"ping","seq":666}\n{"cmd":"exit"}\n'
    escaped = ('{"cmd":"compile\\u005fprogram","seq":31,"bogus":1,"grid":{"rows":1,"cols":1},'
               '"kernels":[{"name":"a","kind":"data_movement_0","source_bytes":%d}]}' % len(looks_like_requests))
    resp = rt.request(escaped, looks_like_requests + b"\n")
    check("escaped compile_program is refused once, with its seq", is_error(resp, "protocol") and resp.get("seq") == 31, resp)
    check("its sources were skipped", rt.request({"cmd": "ping", "seq": 32}) == {"ok": True, "seq": 32})
    # A line that is not JSON: the runtime discards what follows until the input is idle.
    resp = rt.request('{"cmd":"compile_program","kernels":[', looks_like_requests + b"\n")
    check("unreadable line: one protocol error", is_error(resp, "protocol"), resp)
    check("unreadable line: what followed was discarded", rt.request({"cmd": "ping", "seq": 33}) == {"ok": True, "seq": 33})
    cb_too_big = {"cmd": "compile_program", "grid": {"rows": 1, "cols": 1},
                  "cbs": [{"index": 0, "format": "Float16_b", "page_bytes": 1 << 31, "num_pages": 2}],
                  "kernels": [{"name": "a", "kind": "data_movement_0", "source_bytes": 1}]}
    check("circular buffer larger than l1_bytes", is_error(rt.request(cb_too_big, b"x\n"), "invalid_argument"))

    # compile_program framing: raw sources after the line, then "\n".
    src = b"void kernel_main() {}"
    kern = {"name": "reader", "kind": "data_movement_0", "source_bytes": len(src)}
    resp = rt.request({"cmd": "compile_program", "grid": {"rows": rows + 1, "cols": 1}, "kernels": [kern]}, src + b"\n")
    check("grid larger than the device", is_error(resp, "invalid_argument"), resp)
    resp = rt.request({"cmd": "compile_program", "grid": {"rows": 1, "cols": 1},
                       "kernels": [dict(kern, source_bytes=4000)]}, src)
    check("source shorter than declared", is_error(resp, "protocol"), resp)
    check("still serving after a short source", rt.request({"cmd": "ping"}) == {"ok": True})
    # §3 compile_program: a kernel that does not compile is kernel_compilation, and the message
    # carries the compiler's output (here: the undeclared name).
    bad_src = b"void kernel_main() { not_declared_x42(); }"
    resp = rt.request({"cmd": "compile_program", "grid": {"rows": 1, "cols": 1},
                       "kernels": [dict(kern, source_bytes=len(bad_src))]}, bad_src + b"\n")
    check("a compile error is kernel_compilation with the compiler's message",
          is_error(resp, "kernel_compilation") and "not_declared_x42" in resp["error"]["message"], resp)
    check("still serving after a compile error", rt.request({"cmd": "ping"}) == {"ok": True})
    good = rt.request({"cmd": "compile_program", "grid": {"rows": 1, "cols": 1}, "num_inputs": 1,
                       "kernels": [dict(kern, runtime_args=[{"src": "input_address", "index": 0}, {"src": "core_x"}])]},
                      src + b"\n")
    check("compile_program", good.get("ok") is True and isinstance(good.get("program"), int), good)
    again = rt.request({"cmd": "compile_program", "grid": {"rows": 1, "cols": 1}, "num_inputs": 1,
                        "kernels": [dict(kern, runtime_args=[{"src": "input_address", "index": 0}, {"src": "core_x"}])]},
                       src + b"\n")
    check("compile_program is cached by content", again.get("cached") is True and again.get("program") == good.get("program"), again)
    p = good.get("program", 0)
    check("run", rt.request({"cmd": "run", "program": p, "inputs": [buf]}).get("ok") is True)
    check("run with wrong input count", is_error(rt.request({"cmd": "run", "program": p, "inputs": []}), "kernel_launch"))
    check("run on a grid beyond the device",
          is_error(rt.request({"cmd": "run", "program": p, "inputs": [buf], "grid": {"rows": rows, "cols": cols + 1}}),
                   "kernel_launch"))
    check("run on a grid without cores",
          is_error(rt.request({"cmd": "run", "program": p, "inputs": [buf], "grid": {"rows": 0, "cols": cols}}),
                   "kernel_launch"))
    check("release_program", rt.request({"cmd": "release_program", "program": p}).get("ok") is True)

    stats = rt.request({"cmd": "stats"})
    check("stats", stats.get("ok") is True and stats.get("buffers") == 2 and stats.get("errors", 0) >= len(errors)
          and stats.get("arena_bytes") == 2 << 20, stats)
    check("free_buf", rt.request({"cmd": "free_buf", "buffer": b}).get("ok") is True)
    check("exit", rt.request({"cmd": "exit"}) == {"ok": True})
    check("exit status 0", rt.proc.wait(timeout=10) == 0)
    arena.close()
    os.close(fd)

    # A runtime whose target cannot start answers every request with the reason, and exits.
    bad = Runtime(*BAD_TARGET[0])
    resp = bad.request({"cmd": "hello", "version": 1})
    check("failed target: hello gets the reason", resp.get("ok") is False and BAD_TARGET[1] in resp["error"]["message"], resp)
    check("failed target: exit", bad.request({"cmd": "exit"}) == {"ok": True})
    bad.close()
    bad = Runtime(*BAD_TARGET[0])
    check("failed target: end of input: exit status 0", bad.close() == 0)

    # End of input ends the runtime cleanly.
    eof = Runtime()
    check("end of input: exit status 0", eof.close() == 0)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
