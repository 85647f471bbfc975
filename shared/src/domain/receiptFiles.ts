/**
 * Receipt files (spec §5, decisions.md "Policies"): png, jpeg or gif, at most
 * 150,000 bytes, with the spec's messages. The browser checks before sending;
 * the server checks the stored bytes again (`imageStructureProblem` here, plus
 * content sniffing in the service), because the browser can be bypassed.
 */
export const RECEIPT_MAX_BYTES = 150_000;
export const RECEIPT_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

export function isReceiptType(type: string): type is ReceiptType {
  return (RECEIPT_TYPES as readonly string[]).includes(type);
}

/**
 * The spec's message for a file we do not take: "'{type}' is not a supported
 * format." On the server the type is the one sniffed from the stored bytes,
 * never the one the browser claimed (a text file named fake.png is not an
 * 'image/png'). When no type can be named (the browser gives none, or the
 * bytes are of no known type), the file's name stands in for it, as the
 * person knows the file by it: "'fake.png' is not a supported format."
 */
export function unsupportedFormatMessage(type: string | undefined, fileName: string): string {
  return `'${type || fileName}' is not a supported format.`;
}

/**
 * 'text/plain' when the bytes read as text (valid UTF-8, no control
 * characters but tab and line breaks), else undefined. Sniffing libraries name
 * binary formats only; a text file renamed to .png is the commonest bad
 * receipt, and the spec's "'{type}' is not a supported format." should name
 * its type rather than fall back to the file's name.
 */
export function textType(bytes: Uint8Array): 'text/plain' | undefined {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? undefined : 'text/plain';
}

/** The spec's message for a file over the limit. */
export function tooLargeMessage(fileName: string): string {
  return `'${fileName}' is too large, please pick a smaller file.`;
}

/** What is wrong with a file before it is sent, or undefined when it may go. */
export function receiptFileProblem(file: { name: string; type: string; size: number }): string | undefined {
  if (!isReceiptType(file.type)) return unsupportedFormatMessage(file.type, file.name);
  if (file.size > RECEIPT_MAX_BYTES) return tooLargeMessage(file.name);
  if (file.size === 0) return `'${file.name}' is empty.`;
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, from: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(from, from + length));
}

/** PNG: signature, then chunks (length, type, data, CRC) up to IEND, which must end the file. */
function pngProblem(bytes: Uint8Array): string | undefined {
  if (!startsWith(bytes, PNG_SIGNATURE)) return 'not a PNG';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let first = true;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return 'a PNG chunk is damaged';
    if (first && type !== 'IHDR') return 'a PNG must start with its header chunk';
    first = false;
    const end = at + 12 + length;
    if (end > bytes.length) return 'a PNG chunk runs past the end of the file';
    if (type === 'IEND') return end === bytes.length ? undefined : 'there is data after the PNG image';
    at = end;
  }
  return 'the PNG image is incomplete';
}

/** JPEG: SOI, segments up to the scan, and the image must end with EOI. */
function jpegProblem(bytes: Uint8Array): string | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return 'not a JPEG';
  let at = 2;
  // Walk the header segments to the start of scan; each is FF xx + 16-bit length.
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return 'a JPEG segment is damaged';
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    if (length < 2) return 'a JPEG segment is damaged';
    at += 2 + length;
    if (marker === 0xda) break;
  }
  if (at > bytes.length) return 'the JPEG image is incomplete';
  // The scan runs to EOI, which must be the last two bytes.
  const last = bytes.length - 2;
  if (bytes[last] !== 0xff || bytes[last + 1] !== 0xd9) return 'there is data after the JPEG image';
  return undefined;
}

/** GIF: header, logical screen, optional colour table, blocks, and the 0x3B trailer at the very end. */
function gifProblem(bytes: Uint8Array): string | undefined {
  const header = ascii(bytes, 0, 6);
  if (header !== 'GIF87a' && header !== 'GIF89a') return 'not a GIF';
  if (bytes.length < 14) return 'the GIF image is incomplete';
  const packed = bytes[10] as number;
  let at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  const skipSubBlocks = () => {
    while (at < bytes.length) {
      const size = bytes[at] as number;
      at += 1 + size;
      if (size === 0) return;
    }
  };
  while (at < bytes.length) {
    const introducer = bytes[at];
    if (introducer === 0x3b) return at === bytes.length - 1 ? undefined : 'there is data after the GIF image';
    if (introducer === 0x21) {
      at += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      const flags = bytes[at + 9] as number;
      at += 10 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
      at += 1; // LZW minimum code size
      skipSubBlocks();
    } else {
      return 'a GIF block is damaged';
    }
  }
  return 'the GIF image is incomplete';
}

/**
 * Does the file hold exactly one well-formed image of its type, ending where the
 * format says it ends? A PNG header glued to an HTML page, or a script after a
 * JPEG's end marker, fails here. Returns what is wrong, or undefined.
 */
export function imageStructureProblem(bytes: Uint8Array, type: ReceiptType): string | undefined {
  if (type === 'image/png') return pngProblem(bytes);
  if (type === 'image/jpeg') return jpegProblem(bytes);
  return gifProblem(bytes);
}
