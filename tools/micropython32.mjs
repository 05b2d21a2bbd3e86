#!/usr/bin/env node
// A 32-bit MicroPython (the WebAssembly port from npm) with the unix port's command line, so that the tests,
// `sabot sim --runtime micropython32` and the bench run the firmware where small ints hold 31 bits, as on the
// RP2040 and the ESP32:
//
//     node tools/micropython32.mjs [-X heapsize=N] (-m MODULE | SCRIPT | -c CODE) [ARGS...]
//
// MICROPYPATH sets sys.path as on the unix port (a script's folder first, '' for -m and -c). The host's folders
// appear in the VM at their own paths, read and written through (a journal is on the host as each record is
// flushed), and the VM starts in the caller's working folder. stdout, stderr and the exit status are the unix
// port's: SystemExit's code, 1 and a traceback on stderr for an uncaught exception, 2 for a bad command line.
// -X heapsize=N is the VM's first heap; this port grows its heap when full, so it is no cap: heap limits are
// measured on the unix port.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { loadMicroPython } = await import(require.resolve("@micropython/micropython-webassembly-pyscript"));

const USAGE = "usage: micropython32 [-X heapsize=N] (-m MODULE | SCRIPT | -c CODE) [ARGS...]";

function parseSize(text) {
  const match = /^(\d+)([kKmM]?)$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * ({ k: 1024, m: 1048576 }[match[2].toLowerCase()] || 1);
}

function parseArgs(argv) {
  let heapsize = 1 << 20;
  let i = 0;
  while (i < argv.length && argv[i] === "-X") {
    const option = argv[i + 1] || "";
    if (!option.startsWith("heapsize=") || parseSize(option.slice(9)) === null) return null;
    heapsize = parseSize(option.slice(9));
    i += 2;
  }
  if (i >= argv.length) return null;
  if (argv[i] === "-m" || argv[i] === "-c") {
    if (i + 1 >= argv.length) return null;
    const kind = argv[i] === "-m" ? "module" : "code";
    const argv0 = kind === "module" ? argv[i + 1] : "-c";
    return { heapsize, kind, target: argv[i + 1], argv: [argv0, ...argv.slice(i + 2)] };
  }
  return { heapsize, kind: "script", target: argv[i], argv: argv.slice(i) };
}

// The host's files through the Emscripten FS: each node is a host path, each open file a host descriptor.
// Links are followed by the host, so a node is always the file or folder a path names.
const O_ACCMODE = 3;
const ERRNO = { ENOENT: 44, EEXIST: 20, ENOTDIR: 54, EISDIR: 31, ENOTEMPTY: 55, EACCES: 2, EPERM: 63, EINVAL: 28,
  EBADF: 8, ENOSPC: 51, EXDEV: 75, EBUSY: 10, ELOOP: 32, ENAMETOOLONG: 37, EROFS: 69 };

function hostFS(FS) {
  const hostPath = (node) => (node.hostRoot !== undefined ? node.hostRoot : path.join(hostPath(node.parent),
    node.name));
  const host = (fn) => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof FS.ErrnoError) throw e;
      throw new FS.ErrnoError(ERRNO[e.code] || 29);  // 29: EIO
    }
  };
  const fileStream = {
    open(stream) {
      stream.hostFd = host(() => fs.openSync(hostPath(stream.node), stream.flags & O_ACCMODE));
    },
    close(stream) {
      host(() => fs.closeSync(stream.hostFd));
    },
    read: (stream, buffer, offset, length, position) =>
      host(() => fs.readSync(stream.hostFd, buffer, offset, length, position)),
    write: (stream, buffer, offset, length, position) =>
      host(() => fs.writeSync(stream.hostFd, buffer, offset, length, position)),
    llseek(stream, offset, whence) {
      let position = offset;
      if (whence === 1) position += stream.position;
      else if (whence === 2) position += host(() => fs.fstatSync(stream.hostFd).size);
      if (position < 0) throw new FS.ErrnoError(ERRNO.EINVAL);
      return position;
    },
  };
  const dirStream = { llseek: (stream, offset, whence) => (whence === 1 ? stream.position + offset : offset) };
  const nodeOps = {
    getattr(node) {
      const st = host(() => fs.statSync(hostPath(node)));
      return { dev: 1, ino: node.id, mode: st.mode, nlink: st.nlink, uid: 0, gid: 0, rdev: 0, size: st.size,
        atime: st.atime, mtime: st.mtime, ctime: st.ctime, blksize: 4096, blocks: Math.ceil(st.size / 4096) };
    },
    setattr(node, attr) {
      const where = hostPath(node);
      if (attr.mode !== undefined) host(() => fs.chmodSync(where, attr.mode));
      if (attr.size !== undefined) host(() => fs.truncateSync(where, attr.size));
      if (attr.mtime !== undefined) host(() => fs.utimesSync(where, new Date(attr.atime ?? attr.mtime),
        new Date(attr.mtime)));
    },
    lookup(parent, name) {
      const where = path.join(hostPath(parent), name);
      return make(parent, name, host(() => fs.statSync(where)).mode);
    },
    mknod(parent, name, mode) {
      const where = path.join(hostPath(parent), name);
      if (FS.isDir(mode)) host(() => fs.mkdirSync(where, mode & 0o7777));
      else host(() => fs.closeSync(fs.openSync(where, "wx", mode & 0o7777)));
      return make(parent, name, mode);
    },
    rename(node, newDir, newName) {
      host(() => fs.renameSync(hostPath(node), path.join(hostPath(newDir), newName)));
      node.name = newName;
    },
    unlink: (parent, name) => host(() => fs.unlinkSync(path.join(hostPath(parent), name))),
    rmdir: (parent, name) => host(() => fs.rmdirSync(path.join(hostPath(parent), name))),
    readdir: (node) => [".", "..", ...host(() => fs.readdirSync(hostPath(node)))],
    symlink: (parent, name, target) => host(() => fs.symlinkSync(target, path.join(hostPath(parent), name))),
  };
  function make(parent, name, mode) {
    const node = FS.createNode(parent, name, mode, 0);
    node.node_ops = nodeOps;
    node.stream_ops = FS.isDir(mode) ? dirStream : fileStream;
    return node;
  }
  return {
    mount(mount) {
      const root = make(null, "/", host(() => fs.statSync(mount.opts.root)).mode);
      root.hostRoot = mount.opts.root;
      return root;
    },
  };
}

// Every top-level folder of the host at its own path (not /dev, /proc, /sys: the VM keeps its own /dev), and the
// host's /dev/shm, where the bench keeps its scratch files.
function mountHost(FS) {
  const type = hostFS(FS);
  const folders = fs.readdirSync("/").filter((name) => !["dev", "proc", "sys"].includes(name)).map((name) => "/" + name);
  for (const where of [...folders, "/dev/shm"]) {
    let isDir = false;
    try {
      isDir = fs.statSync(where).isDirectory();
    } catch {
      continue;
    }
    if (!isDir) continue;
    try {
      FS.mkdir(where);
    } catch {
      // already in the VM's own tree (/tmp, /home, /dev/shm): the host's folder is mounted over it
    }
    FS.mount(type, { root: where }, where);
  }
  FS.chdir(process.cwd());
}

// Output in blocks, not a write per character (the port calls back once a byte).
function sink(fd) {
  let chunks = [];
  let size = 0;
  const flush = () => {
    if (size) fs.writeSync(fd, Buffer.concat(chunks, size));
    chunks = [];
    size = 0;
  };
  const write = (bytes) => {
    chunks.push(Buffer.from(bytes));
    size += bytes.length;
    if (size >= 8192) flush();
  };
  return { write, flush };
}

// The Python side: sys.path and sys.argv as the unix port sets them, then the program, its SystemExit code kept.
// -m MODULE runs the module's .py found on sys.path (.mpy files are skipped for it: this port cannot import a module
// under the name __main__, as the unix port's -m does); what it imports loads from .mpy files as usual.
const LAUNCH = `
import sys
def _source(module):
    import os
    relative = "/" + module.replace(".", "/") + ".py"
    for folder in sys.path:
        try:
            os.stat((folder or ".") + relative)
            return (folder or ".") + relative
        except OSError:
            pass
    raise ImportError("no module named '%s' (as .py) on the path" % module)
def _launch(request):
    import json
    kind, target, argv, path = json.loads(request)
    sys.argv[:] = argv
    sys.path[:] = path
    try:
        code, name = target, "<stdin>"
        if kind != "code":
            if kind == "module":
                if "." in target:
                    __import__(target.rpartition(".")[0])  # its package first, as an import would
                name = _source(target)
            else:
                name = target
            with open(name) as f:
                code = f.read()
        exec(compile(code, name, "exec"), {"__name__": "__main__", "__file__": name})
    except SystemExit as e:
        code = e.args[0] if e.args else 0
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException as e:
        sys.print_exception(e, sys.stderr)
        return 1
    return 0
`;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  const out = sink(1);
  const err = sink(2);
  const mp = await loadMicroPython({ heapsize: args.heapsize, stdout: out.write, stderr: err.write,
    linebuffer: false });
  try {
    mountHost(mp.FS);
    const micropypath = process.env.MICROPYPATH;
    const searched = micropypath !== undefined ? micropypath.split(":")
      : [".frozen", "~/.micropython/lib", "/usr/lib/micropython"];
    const first = args.kind === "script" ? path.dirname(path.resolve(args.target)) : "";
    mp.runPython(LAUNCH);
    const launch = mp.globals.get("_launch");
    return launch(JSON.stringify([args.kind, args.target, args.argv, [first, ...searched]]));
  } finally {
    out.flush();
    err.flush();
  }
}

process.exitCode = await main();
