/**
 * A strict RFC 4180 reader for the tests of the CSV export: records end in CRLF, a quoted cell may hold commas,
 * doubled quotes and line breaks, and anything else (a bare LF or CR, a quote inside an unquoted cell, text after a
 * closing quote, an unclosed quote, records of different lengths) throws, so a file a spreadsheet would misread
 * fails the test instead of being read leniently.
 */
export function parseStrictCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let index = 0;
  const fail = (why: string): never => {
    throw new Error(`Not RFC 4180 CSV at offset ${index}: ${why}`);
  };
  const endRecord = () => {
    cells.push(cell);
    records.push(cells);
    cells = [];
    cell = '';
  };
  while (index < text.length) {
    if (text[index] === '"' && cell === '') {
      index += 1;
      for (;;) {
        if (index >= text.length) fail('a quoted cell is never closed');
        if (text[index] === '"' && text[index + 1] === '"') {
          cell += '"';
          index += 2;
        } else if (text[index] === '"') {
          index += 1;
          break;
        } else {
          cell += text[index];
          index += 1;
        }
      }
      if (index < text.length && text[index] !== ',' && text[index] !== '\r') fail('text after a closing quote');
      continue;
    }
    const character = text[index];
    if (character === ',') {
      cells.push(cell);
      cell = '';
      index += 1;
    } else if (character === '\r') {
      if (text[index + 1] !== '\n') fail('a carriage return without a line feed');
      endRecord();
      index += 2;
    } else if (character === '\n') {
      fail('a line feed without a carriage return');
    } else if (character === '"') {
      fail('a quote inside an unquoted cell');
    } else {
      cell += character;
      index += 1;
    }
  }
  if (cell !== '' || cells.length > 0) fail('the last record does not end in CRLF');
  const width = records[0]?.length ?? 0;
  records.forEach((record, number) => {
    if (record.length !== width) throw new Error(`Record ${number} has ${record.length} cells, the header ${width}`);
  });
  return records;
}
