import zlib from 'node:zlib';

/**
 * A greyscale PNG built by hand: its header says `width` × `height` at `bitDepth` bits a pixel,
 * and its image data is `scanlines` deflated as given (filter bytes included). Lets a test make a
 * huge picture in a small file, or one whose data does not match its header, which no encoder writes.
 */
export function greyPng(width: number, height: number, bitDepth: 1 | 8, scanlines: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = 0; // greyscale
  const signature = Buffer.from('89504e470d0a1a0a', 'hex');
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(scanlines, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
