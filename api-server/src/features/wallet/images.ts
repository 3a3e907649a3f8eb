/**
 * The images a pass needs (Apple requires icon.png; the logo is shown beside the logo text; Google
 * needs a logo address): drawn from the design's colours, so a pass is complete without an
 * upload. A square of the background colour with a rounded mark of the foreground colour, as an
 * RGB PNG (signature, IHDR, IDAT of deflated scanlines, IEND; CRC-32 from node:zlib).
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

const rgb = (hex: string): [number, number, number] => {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

/** A `width` x `height` PNG: the background, and a mark of the foreground colour in its middle. */
export function passImage(width: number, height: number, background: string, foreground: string): Buffer {
  const [br, bg, bb] = rgb(background);
  const [fr, fg, fb] = rgb(foreground);
  const side = Math.min(width, height);
  const cx = width / 2;
  const cy = height / 2;
  const half = side * 0.28;
  const radius = side * 0.1;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      // A rounded square: inside when the distance to the inner square is within the radius.
      const dx = Math.max(Math.abs(x + 0.5 - cx) - (half - radius), 0);
      const dy = Math.max(Math.abs(y + 0.5 - cy) - (half - radius), 0);
      const inside = dx * dx + dy * dy <= radius * radius;
      const at = row + 1 + x * 3;
      raw[at] = inside ? fr : br;
      raw[at + 1] = inside ? fg : bg;
      raw[at + 2] = inside ? fb : bb;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
