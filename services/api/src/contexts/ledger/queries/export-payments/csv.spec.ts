import fc from 'fast-check';
import { CrlfLineEnds } from './csv';

/** The plain definition: every line feed outside quotes becomes CRLF, the quote state carried across chunks. */
function convertByteByByte(chunks: readonly Buffer[]): string {
  let insideQuotes = false;
  let converted = '';
  for (const chunk of chunks) {
    for (const byte of chunk) {
      if (byte === 0x22) insideQuotes = !insideQuotes;
      converted += byte === 0x0a && !insideQuotes ? '\r\n' : String.fromCharCode(byte);
    }
  }
  return converted;
}

/** Splits `bytes` at the given cut points (sorted, deduplicated, inside the buffer). */
function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  return chunks;
}

describe('CrlfLineEnds', () => {
  it('converts like the byte-by-byte definition, wherever the chunks are cut', () => {
    // Mostly quotes, line feeds and commas, so that quoted cells, doubled quotes and empty lines all come up.
    const csvByte = fc.constantFrom(0x22, 0x0a, 0x2c, 0x61, 0x0d);
    fc.assert(
      fc.property(
        fc
          .uint8Array({ maxLength: 200 })
          .chain((noise) =>
            fc.tuple(
              fc.array(fc.oneof(csvByte, fc.constant(noise[0] ?? 0x62)), { maxLength: 300 }),
              fc.array(fc.nat(), { maxLength: 12 }),
            ),
          ),
        ([bytes, cuts]) => {
          const chunks = split(Buffer.from(bytes), cuts);
          const lineEnds = new CrlfLineEnds();
          const converted = chunks.map((chunk) => lineEnds.convert(chunk).toString('latin1')).join('');
          expect(converted).toBe(convertByteByByte(chunks));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('grows its list of line ends for a chunk of many short lines', () => {
    const lines = 5000;
    const converted = new CrlfLineEnds().convert(Buffer.from('x\n'.repeat(lines)));
    expect(converted.toString()).toBe('x\r\n'.repeat(lines));
  });
});
