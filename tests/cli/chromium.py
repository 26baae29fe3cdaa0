# Headless Chromium driven over the DevTools protocol on a pipe
# (--remote-debugging-pipe: commands in on fd 3, answers and events out on
# fd 4, each a JSON text ending in a NUL), for the tests that check a page
# as a browser shows it: its DOM, its layout, its console, a screenshot.
# The page under test has no script of its own: the test's expressions run
# through Runtime.evaluate.
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

BROWSERS = ("chromium", "chromium-browser")


def find():
    """The path of Debian's chromium, or None."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless browser with one tab; close() ends it."""

    def __init__(self, path, width=1100, height=800, timeout=30.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="iogauge-chromium-")
        cmd_r, self.cmd_w = os.pipe()
        self.ev_r, ev_w = os.pipe()
        args = [path, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--mute-audio",
                "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                "--window-size=%d,%d" % (width, height)]
        # The pipe ends become fds 3 and 4 in the browser, through a shell's redirections.
        shell = 'exec "$@" 3<&%d 4>&%d' % (cmd_r, ev_w)
        self.proc = subprocess.Popen(["sh", "-c", shell, "sh"] + args, pass_fds=(cmd_r, ev_w),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(ev_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(domain + ".enable")

    def _read(self, deadline):
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium: no answer in %.0f s" % self.timeout)
            chunk = os.read(self.ev_r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe (exit %s)" % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None):
        """Sends @method and returns its result; events met on the way are kept."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method):
        deadline = time.monotonic() + self.timeout
        while not any(e["method"] == method for e in self.events):
            m = self._read(deadline)
            if "method" in m:
                self.events.append(m)

    def load(self, url):
        """Opens @url and waits for its load event."""
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expr):
        """The value of the JavaScript expression @expr (JSON-able)."""
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate: %s" % r["exceptionDetails"])
        return r["result"].get("value")

    def errors(self):
        """What the console and the browser's log said at level error or
        warning, and exceptions: one text each."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append("console.%s: %s" % (p["type"], [a.get("value") for a in p.get("args", [])]))
            elif e["method"] == "Runtime.exceptionThrown":
                out.append("exception: %s" % p.get("exceptionDetails", {}).get("text"))
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                ent = p["entry"]
                out.append("log %s (%s): %s %s" % (ent["level"], ent.get("source"), ent.get("text"),
                                                  ent.get("url", "")))
        return out

    def viewport(self, width, height, mobile=False):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def screenshot(self, path, full=True):
        """A PNG of the page (all of it with @full) into @path."""
        params = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
            size = self.evaluate("[document.documentElement.scrollWidth,"
                                 " document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = base64.b64decode(self.call("Page.captureScreenshot", params)["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data

    def pdf(self):
        """The page printed (its print stylesheet), as PDF bytes."""
        return base64.b64decode(self.call("Page.printToPDF", {})["data"])

    def close(self):
        try:
            self.call("Browser.close")
        except (EOFError, OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.ev_r)
        shutil.rmtree(self.profile, ignore_errors=True)


if __name__ == "__main__":
    # python3 chromium.py PAGE.html OUT.png [WIDTH]: a whole-page screenshot.
    import sys
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: chromium.py PAGE.html OUT.png [WIDTH]")
    width = int(sys.argv[3]) if len(sys.argv) == 4 else 1000
    b = Browser(find() or sys.exit("chromium is not installed"), width=width)
    try:
        b.viewport(width, 800)
        b.load("file://" + os.path.abspath(sys.argv[1]))
        b.screenshot(sys.argv[2])
    finally:
        b.close()
