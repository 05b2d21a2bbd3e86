"""The pit's pages over HTTP (docs/pit.md), dispatched from a table of routes: the pit's page, a table's screen
(/table/N, sabot N's), a coup recalled (/recall/N/COUP: sabot N's journal copy, the coup of its latest séance), and
the state both poll (/state.json). Served on the address given (127.0.0.1 by default; the casino's own network for
the tables' screens), to requests that name it: a page of another site renamed to it (DNS rebinding) gets 403."""

import http.server
from importlib import resources
from urllib.parse import urlsplit

from sabot.pit import recall

_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css",
          ".json": "application/json"}


def _page(name):
    return lambda pit, rest: (resources.files(__package__).joinpath("page", name).read_bytes(), name)


def _state(pit, rest):
    return pit.state_json(), ".json"


def _recall(pit, rest):
    sabot, _, coup = rest.partition("/")
    shoe = next((s for s in pit.shoes if str(s.sabot) == sabot and s.mirror), None)
    if shoe is None or not coup.isdigit():
        return None
    table = shoe.table.table
    try:
        found = recall.coup_of(shoe.mirror.folder, table, int(coup), shoe.table.seance, pit.public_keys(shoe))
    except (recall.NotFound, ValueError):
        return None
    return recall.page(found).encode("utf-8"), ".html"


# path, or path prefix ending in "/": what answers it (the pit, the rest of the path) -> (bytes, name or suffix)
ROUTES = {"/": _page("index.html"), "/pit.js": _page("pit.js"), "/pit.css": _page("pit.css"),
          "/state.json": _state, "/table/": _page("table.html"), "/recall/": _recall}


def route(path):
    if path in ROUTES:
        return ROUTES[path], ""
    head, _, rest = path[1:].partition("/")
    answer = ROUTES.get("/%s/" % head)
    return (answer, rest) if answer and rest else (None, "")


class _Handler(http.server.BaseHTTPRequestHandler):
    pit = None

    def do_GET(self):  # noqa: N802 (http.server's name)
        host = self.server.server_address
        names = {"%s:%d" % (host[0], host[1]), "127.0.0.1:%d" % host[1], "localhost:%d" % host[1]}
        if (self.headers.get("Host") or "").lower() not in names:
            self.send_error(403, "this pit answers http://%s:%d/ alone" % host[:2])
            return
        answer, rest = route(urlsplit(self.path).path)
        found = answer(self.pit, rest) if answer else None
        if found is None:
            self.send_error(404)
            return
        body, name = found
        self.send_response(200)
        self.send_header("Content-Type", _TYPES[name[name.rindex("."):]])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def server(pit, host="127.0.0.1", port=8018):
    handler = type("Handler", (_Handler,), {"pit": pit})
    return http.server.ThreadingHTTPServer((host, port), handler)
