"""What the yardstick adapters share: reading a PyTorch zip checkpoint with
numpy alone, our engine as a child asked for the rules, and the protocol loop
that `gulbara match` speaks to an engine (protocol/SPEC.md: `ubgi`, `isready`,
`set`, `position`, `dice`, `go`, `quit`).

Imported by tavli_plakoto.py and longnardi.py (Python puts a script's folder
on the import path). Nothing here is any outside engine's code.
"""

import collections
import io
import pickle
import subprocess
import sys
import zipfile

import numpy as np


class _Stub:
    """Stands for any class the checkpoint names that we do not need."""

    def __init__(self, *args, **kwargs):
        self.args = args

    def __setstate__(self, state):
        self.state = state


def read_torch_zip(path):
    """The object pickled in a PyTorch zip checkpoint (`.pt`, `.pth`), its
    tensors as float32 numpy arrays.

    Such a file is a zip holding a pickle (data.pkl) whose tensors point at
    raw little-endian storages (data/<key>). Only float32 storages are read;
    any other is refused with a ValueError, as is a tensor reaching past its
    storage.
    """
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        pkl = [n for n in names if n.endswith("/data.pkl")]
        if len(pkl) != 1:
            raise ValueError(f"{path}: not a PyTorch zip checkpoint (no single data.pkl)")
        prefix = pkl[0][: -len("data.pkl")]
        storages = {}

        def storage(key, numel):
            if key not in storages:
                raw = z.read(f"{prefix}data/{key}")
                if len(raw) < 4 * numel:
                    raise ValueError(f"{path}: storage {key} is shorter than its {numel} floats")
                storages[key] = np.frombuffer(raw, dtype="<f4")[:numel]
            return storages[key]

        def rebuild(stor, offset, size, stride, *rest):
            if not isinstance(stor, np.ndarray):
                raise ValueError(f"{path}: a tensor without a float32 storage")
            if len(size) == 0:
                return np.array(stor[offset], dtype=np.float32)
            need = offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1
            if min(size) > 0 and need > len(stor):
                raise ValueError(f"{path}: a tensor reaches past its storage")
            arr = np.lib.stride_tricks.as_strided(
                stor[offset:],
                shape=tuple(size),
                strides=tuple(s * 4 for s in stride),
            )
            return np.array(arr, dtype=np.float32)

        class Unpickler(pickle.Unpickler):
            def find_class(self, module, name):
                if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
                    return rebuild
                if (module, name) == ("collections", "OrderedDict"):
                    return collections.OrderedDict
                if module == "torch" and name.endswith("Storage"):
                    return "float32" if name == "FloatStorage" else ("unsupported", name)
                return _Stub

            def persistent_load(self, pid):
                if not isinstance(pid, tuple) or len(pid) != 5:
                    raise ValueError(f"{path}: unknown persistent id")
                kind, dtype, key, _location, numel = pid
                if kind != "storage" or dtype != "float32":
                    raise ValueError(f"{path}: unsupported storage {pid[:2]}")
                return storage(key, numel)

        return Unpickler(io.BytesIO(z.read(pkl[0]))).load()


class Child:
    """Our engine, asked for the rules: legal plays and their ends."""

    def __init__(self, cmd):
        self.p = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, lines):
        self.p.stdin.write("".join(l + "\n" for l in lines))
        self.p.stdin.flush()

    def until(self, done):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("our engine closed its output")
            line = line.rstrip("\n")
            out.append(line)
            if done(line):
                return out

    def sync(self, lines):
        """Sends lines, then isready; returns the lines before readyok."""
        self.send(list(lines) + ["isready"])
        return self.until(lambda l: l == "readyok")[:-1]

    def show(self, before=(), context=""):
        """Sends the lines `before`, then `show`: the position's `show`
        fields as a dict of lists."""
        self.send(list(before) + ["show"])
        return self.read_show(context)

    def read_show(self, context=""):
        """Reads one `show` answer as a dict of lists; an error line (of
        `show` or of a line sent before it) raises, `context` appended."""
        fields = {}
        for line in self.until(lambda l: l == "showok" or l.startswith("error ")):
            if line.startswith("error "):
                raise RuntimeError(line + context)
            key, _, rest = line.partition(" ")
            fields.setdefault(key, []).append(rest)
        return fields


def serve(child, name, author, choose, log_path=None):
    """Answers the match runner on stdin/stdout until `quit`: `ubgi` names
    the adapter (`id name NAME`, `id author AUTHOR`); the setup commands go
    to our engine `child` (its `engine.*` settings mean nothing here and are
    dropped); `go` plays `choose()`, a play in bestmove words. Errors are
    answered as `error` lines; `log_path` appends every command received."""
    out = sys.stdout
    log = open(log_path, "a") if log_path else None
    for line in sys.stdin:
        if log:
            log.write("> " + line)
            log.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        try:
            if cmd == "ubgi":
                out.write(f"id name {name}\n")
                out.write(f"id author {author}\n")
                out.write("proto 0.2\nubgiok\n")
            elif cmd == "isready":
                out.write("readyok\n")
            elif cmd == "quit":
                break
            elif cmd in ("set", "setoption", "position", "dice", "newgame", "newsession"):
                if cmd == "set" and len(words) >= 2 and words[1].startswith("engine."):
                    pass  # our engine's search settings mean nothing here
                else:
                    errors = [l for l in child.sync([line.strip()]) if l.startswith("error ")]
                    for e in errors:
                        out.write(e + "\n")
            elif cmd == "go" and len(words) == 1:
                out.write(f"bestmove {choose()}\n")
            else:
                out.write(f"error bad_command {cmd} (not served by this adapter)\n")
        except (RuntimeError, ValueError) as e:
            out.write(f"error bad_state {e}\n")
            child.sync([])  # drop what the child still had to say
            if log:
                log.write(f"! {e}\n")
        out.flush()
    child.send(["quit"])
    child.p.wait(timeout=5)
