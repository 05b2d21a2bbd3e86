"""`sabot web [--out DIR] [--force] [--serve [--port N]]`: writes the page, and serves it on localhost."""

import sys

from sabot.options import number
from sabot.web import build
from sabot.web.serve import serve

DEFAULT_OUT = build.ROOT / "build" / "web"


def add_arguments(parser):
    parser.add_argument("--out", help="the folder to write the page into (default build/web, rewritten each time)")
    parser.add_argument("--force", action="store_true", help="write the page into a folder that holds other files: "
                        "they are kept, never served, and none of them is replaced")
    parser.add_argument("--serve", action="store_true", help="then serve it on http://127.0.0.1:PORT/ (docs/web.md)")
    parser.add_argument("--port", type=number(0, 65535, "TCP port"), default=8017,
                        help="the port for --serve (default 8017; 0: any free one)")


def main(args):
    try:
        out = build.write(args.out or DEFAULT_OUT, force=args.force, replace=args.out is None)
    except (build.PageError, OSError) as e:
        print("sabot web: error: %s" % e, file=sys.stderr)
        return 2
    print("page written to %s (%d bytes)" % (out, build.page_bytes(out)), flush=True)
    if not args.serve:
        return 0
    try:
        return serve(out, args.port)
    except OSError as e:
        print("sabot web: error: cannot serve on 127.0.0.1:%d: %s" % (args.port, e.strerror or e), file=sys.stderr)
        return 2
