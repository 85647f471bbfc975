import { csvField, csvRow, spreadsheetSafe, toCsv } from '@shared/domain/csv';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/csvReader';

describe('csvField (RFC 4180)', () => {
  it.each<[string, string | number | null | undefined, string]>([
    ['plain text as is', 'Powell Books', 'Powell Books'],
    ['a number as is', 12.5, '12.5'],
    ['null as empty', null, ''],
    ['undefined as empty', undefined, ''],
    ['empty as empty', '', ''],
    ['a comma quoted', 'Books, Inc.', '"Books, Inc."'],
    ['quotes doubled and quoted', 'The "Best" Course', '"The ""Best"" Course"'],
    ['a lone quote', '"', '""""'],
    ['an LF quoted', 'line one\nline two', '"line one\nline two"'],
    ['a CRLF quoted', 'a\r\nb', '"a\r\nb"'],
    ['a CR quoted', 'a\rb', '"a\rb"'],
    ['spaces kept unquoted', '  padded  ', '  padded  '],
    ['unicode as is', 'Powell’s Bücher', 'Powell’s Bücher'],
  ])('%s', (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe('csvRow and toCsv', () => {
  it('joins with commas and ends every record with CRLF', () => {
    expect(csvRow(['a', 'b, c', 3])).toBe('a,"b, c",3\r\n');
    expect(
      toCsv(
        ['Name', 'Note'],
        [
          ['Ana', 'said "hi",\nthen left'],
          ['Leo', ''],
        ],
      ),
    ).toBe('Name,Note\r\nAna,"said ""hi"",\nthen left"\r\nLeo,\r\n');
  });

  it('round-trips through a strict parser', () => {
    const rows = [['x,y', '"q"', 'multi\r\nline', '', 'plain']];
    const text = toCsv(['a', 'b', 'c', 'd', 'e'], rows);
    expect(parseCsv(text)).toEqual([['a', 'b', 'c', 'd', 'e'], ...rows]);
  });
});

describe('spreadsheetSafe', () => {
  it.each([
    ['=HYPERLINK("x")', '\'=HYPERLINK("x")'],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['Amazon', 'Amazon'],
    ['', ''],
  ])('%j -> %j', (input, output) => {
    expect(spreadsheetSafe(input)).toBe(output);
  });
});
