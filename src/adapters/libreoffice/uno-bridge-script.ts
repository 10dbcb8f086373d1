/**
 * The Python side of a renderer process (renderer-process.ts), written into the pool's folder and run with an
 * interpreter that has LibreOffice's UNO bindings (Debian's python3-uno). Kept as a string so that it ships in
 * the build with the JavaScript, with no copy step.
 *
 * It connects to its soffice over a named pipe (LibreOffice's UNO remote protocol), then answers one JSON line
 * on stdout for each JSON line on stdin. A request {"id", "input", "output"} loads the .pptx hidden and
 * read-only, exports it with Impress's PDF filter (hidden slides left out, as PowerPoint's export does) and
 * closes it again. argv: the pipe's name, the seconds to wait for soffice to accept, and soffice's process
 * group, which the bridge kills when its stdin closes: if Node dies, neither the bridge nor its LibreOffice
 * outlives it (0 in a sandbox, where bwrap's --die-with-parent does that).
 */
export const UNO_BRIDGE_SCRIPT = String.raw`
import json
import os
import signal
import sys
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


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def describe(error):
    return "%s: %s" % (type(error).__name__, getattr(error, "Message", "") or error)


def connect(pipe, seconds):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + seconds
    while True:
        try:
            context = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        except NoConnectException:
            # soffice is still starting (a fresh profile takes a few seconds): try again shortly.
            if time.monotonic() > deadline:
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
    pipe, seconds, group = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    try:
        try:
            desktop = connect(pipe, seconds)
        except Exception as error:
            say({"failed": "could not connect to LibreOffice: %s" % describe(error)})
            return 1
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
        try:
            if group > 0:
                os.killpg(group, signal.SIGKILL)
        except OSError:
            pass


sys.exit(main())
`;
