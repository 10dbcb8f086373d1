"""Writes the image-budget probe images into DIR (default .): bomb.svg, smuggle.svg, rle.bmp, uses.svg."""
import base64, os, struct, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else '.'
def write(name, data):
    open(os.path.join(out, name), 'wb').write(data)

ops = ''.join(f'<feMorphology radius="3" operator="{"dilate" if i % 2 == 0 else "erode"}"/>' for i in range(12))
write('bomb.svg', f'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f">{ops}</filter><rect width="100" height="100" fill="red" filter="url(#f)"/></svg>'.encode())

def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
w = h = 20000  # one colour, 1-bit grey
c = zlib.compressobj(9)
idat = b''.join(c.compress(b'\x00' * (1 + (w + 7) // 8)) for _ in range(h)) + c.flush()
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 1, 0, 0, 0, 0)) + chunk(b'IDAT', idat) + chunk(b'IEND', b'')
write('smuggle.svg', ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image width="100" height="100" href="data:image/png;base64,' + base64.b64encode(png).decode() + '"/></svg>').encode())

palette = b''.join(bytes([i, i, i, 0]) for i in range(256))
data = (b'\xff\x00' * 150_000 + b'\x00\x00') * 40 + b'\x00\x01'  # runs of 255, end of line, 40 times
off = 14 + 40 + len(palette)
info = struct.pack('<IiiHHIIiiII', 40, 50_000_000, 1, 1, 8, 1, len(data), 2835, 2835, 256, 0)
write('rle.bmp', b'BM' + struct.pack('<IHHI', off + len(data), 0, 0, off) + info + palette + data)

uses = ''.join(f'<use href="#r" x="{i % 50}"/>' for i in range(200))
write('uses.svg', ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><defs><filter id="f"><feMorphology radius="1"/></filter><rect id="r" width="150" height="80" fill="red" filter="url(#f)"/></defs>' + uses + '</svg>').encode())
