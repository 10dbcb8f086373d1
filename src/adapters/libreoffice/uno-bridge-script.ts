/**
 * The Python side of a renderer process (renderer-process.ts), written into the pool's folder and run with an
 * interpreter that has LibreOffice's UNO bindings (Debian's python3-uno). Kept as a string so that it ships in
 * the build with the JavaScript, with no copy step.
 *
 * It starts LibreOffice (in its own process group, and in its sandbox: renderer-sandbox.ts), connects to it over
 * a named pipe in /tmp (LibreOffice's UNO remote protocol), then answers one JSON line on stdout for each JSON
 * line on stdin. A request {"id", "input", "output"} loads the .pptx hidden and read-only, exports it with
 * Impress's PDF filter (hidden slides left out, as PowerPoint's export does) and closes it again. argv: the
 * pipe's name, the seconds to wait for LibreOffice to accept, then LibreOffice's command line. When LibreOffice
 * ends, the bridge says so and ends too; when its stdin closes (Node died), it kills its process group, so
 * neither it nor its LibreOffice outlives the server (in a sandbox, bwrap's --die-with-parent does that too).
 */
export const UNO_BRIDGE_SCRIPT = String.raw`
import json
import os
import signal
import subprocess
import sys
import threading
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import DisposedException


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


SAYING = threading.Lock()


def say(message):
    with SAYING:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def describe(error):
    return "%s: %s" % (type(error).__name__, getattr(error, "Message", "") or error)


def start_office(command, pipe):
    # In the bridge's process group (no session of its own): the one kill that ends the renderer ends both.
    # Its output goes to the bridge's stderr, never into the JSON lines on stdout.
    return subprocess.Popen(
        command + ["--accept=pipe,name=%s;urp;" % pipe], stdin=subprocess.DEVNULL, stdout=sys.stderr
    )


def watch(office):
    # LibreOffice ending on its own (a crash, the kernel's OOM killer) ends the renderer at once, idle or not.
    code = office.wait()
    say({"failed": "LibreOffice stopped (%s)" % ("signal %d" % -code if code < 0 else "exit %d" % code)})
    os._exit(3)


def connect(office, pipe, seconds):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + seconds
    while True:
        try:
            context = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        except NoConnectException:
            # LibreOffice is still starting (a fresh profile takes a few seconds): try again shortly.
            if time.monotonic() > deadline or office.poll() is not None:
                raise
            time.sleep(0.1)


def export(desktop, source, target):
    # No macro runs (MacroExecutionMode NEVER_EXECUTE) and no link is updated (UpdateDocMode NO_UPDATE).
    load = (prop("Hidden", True), prop("ReadOnly", True), prop("UpdateDocMode", 0), prop("MacroExecutionMode", 0))
    document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(source), "_blank", 0, load)
    if document is None:
        raise RuntimeError("LibreOffice could not open the file as a presentation")
    try:
        # The filter soffice --convert-to pdf uses, with its defaults; hidden slides stay out.
        data = uno.Any("[]com.sun.star.beans.PropertyValue", (prop("ExportHiddenSlides", False),))
        store = (prop("FilterName", "impress_pdf_Export"), prop("FilterData", data))
        uno.invoke(document, "storeToURL", (uno.systemPathToFileUrl(target), store))
    finally:
        try:
            document.close(True)
        except Exception:
            document.dispose()


def connected(desktop):
    # Any call crosses the bridge: once soffice is gone, it raises (DisposedException, or a RuntimeException).
    try:
        desktop.getFrames()
        return True
    except Exception:
        return False


def main():
    pipe, seconds, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    try:
        office = start_office(command, pipe)
        try:
            desktop = connect(office, pipe, seconds)
        except Exception as error:
            say({"failed": "could not connect to LibreOffice: %s" % describe(error)})
            return 1
        threading.Thread(target=watch, args=(office,), daemon=True).start()
        say({"ready": True})
        for line in sys.stdin:
            request = json.loads(line)
            try:
                export(desktop, request["input"], request["output"])
                say({"id": request["id"], "done": True})
            except Exception as error:
                # soffice killed mid-conversion surfaces as a DisposedException, or as whatever the call in
                # flight raised ("illegal object given!"): either way the connection is gone, not the deck bad.
                if isinstance(error, DisposedException) or not connected(desktop):
                    say({"id": request["id"], "failed": describe(error), "lost": True})
                    return 2
                say({"id": request["id"], "failed": describe(error)})
        return 0
    finally:
        # Stdin closed (the server went) or the bridge failed: LibreOffice and the bridge end together.
        os.killpg(os.getpgrp(), signal.SIGKILL)


sys.exit(main())
`;
