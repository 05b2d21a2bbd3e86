"""A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe): the page's test and
its bench click, read and download with it, with no WebDriver and no port open."""

import base64
import fcntl
import json
import os
import subprocess
import time

CHROMIUM = "/usr/bin/chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


class BrowserError(Exception):
    pass


class Chromium:
    """One page in a new headless Chromium with its own empty profile; downloads go to downloads."""

    def __init__(self, profile, downloads, width=1280, height=1800):
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()

        def pipes_on_3_and_4():  # the DevTools pipe: Chromium reads fd 3 and writes fd 4
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser, from_browser)]  # neither clobbers
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, "--user-data-dir=%s" % profile, "--remote-debugging-pipe",
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=pipes_on_3_and_4, pass_fds=(3, 4), close_fds=True)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._id = 0
        self.events = []
        self.session = None
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True, session=False)["sessionId"]
        self.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads), eventsEnabled=True,
                  session=False)
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)
        self.send("Runtime.enable")
        self.send("Page.enable")

    def send(self, method, session=True, **params):
        """One DevTools command; its result, or BrowserError with the protocol's message."""
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self):
        while b"\0" not in self._buffer:
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise BrowserError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page, promises awaited; an exception is BrowserError."""
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError("%s: %s" % (expression[:80], details.get("exception", {}).get("description",
                                                                                          details.get("text"))))
        return result["result"].get("value")

    def click(self, selector):
        """A click on the page's element, as the element's own click() gives it; BrowserError if there is none."""
        self.evaluate("document.querySelector(%s).click()" % json.dumps(selector))

    def navigate(self, url):
        self.send("Page.navigate", url=url)

    def wait_for(self, expression, timeout=120):
        """Poll until the expression is truthy in the page; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except BrowserError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError("still false after %d s: %s" % (timeout, expression))
            time.sleep(0.05)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._out)
        os.close(self._in)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
