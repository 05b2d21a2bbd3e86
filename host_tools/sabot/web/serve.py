"""`sabot web --serve`: the page on localhost. Chromium loads neither ES modules nor WebAssembly from file://, so the
page is served, from its own folder only, to this machine only."""

import functools
import http.server

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html",
         ".css": "text/css"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def log_message(self, *args):
        pass  # a request a line would drown the address the user needs


def server(folder, port=8017):
    """An HTTP server of folder on 127.0.0.1 (port 0: any free one); its address is server.server_address."""
    handler = functools.partial(_Handler, directory=str(folder))
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
