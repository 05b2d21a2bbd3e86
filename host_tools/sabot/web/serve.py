"""`sabot web --serve`: the page on localhost. Chromium loads neither ES modules nor WebAssembly from file://, so the
page is served, the files its build wrote alone, to this machine only, and only to a request for this machine by
name: a page of another site that renames itself to 127.0.0.1 (DNS rebinding) sends its own Host and gets 403."""

import functools
import http.server
from urllib.parse import unquote, urlsplit

from sabot.web.build import written

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html",
         ".css": "text/css"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def __init__(self, *args, files, **kwargs):
        self.files = files
        super().__init__(*args, **kwargs)

    def send_head(self):
        port = self.server.server_address[1]
        hosts = {"127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port}
        if (self.headers.get("Host") or "").lower() not in hosts:
            self.send_error(403, "this page answers http://127.0.0.1:%d/ alone" % port)
            return None
        name = unquote(urlsplit(self.path).path).lstrip("/") or "index.html"
        if name not in self.files:
            self.send_error(404)
            return None
        return super().send_head()

    def log_message(self, *args):
        pass  # a request a line would drown the address the user needs


def server(folder, port=8017):
    """An HTTP server on 127.0.0.1 (port 0: any free one) of the files the build wrote into folder (its manifest);
    its address is server.server_address."""
    handler = functools.partial(_Handler, directory=str(folder), files=frozenset(written(folder)))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(folder, port):
    httpd = server(folder, port)
    print("sabot web: http://127.0.0.1:%d/ (Ctrl-C stops it)" % httpd.server_address[1], flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0
