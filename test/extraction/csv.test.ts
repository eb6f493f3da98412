import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/knowledge/extraction/index.js';
import { csvDelimiter } from '../../src/knowledge/extraction/csv.js';
import { bytes, expectError, run, summary } from './helpers.js';
import { extract } from '../../src/knowledge/extraction/index.js';

describe('CSV extraction', () => {
  it('maps product columns like JSON keys; other columns become fields', () => {
    const csv = 'name,price,description,colour,id\nTrail Boot,129.5,Waterproof leather boot,brown,17\nCity Shoe,89,Light shoe,,18\n';
    expect(summary(run(csv, 'csv'))).toEqual([
      ['product', 'Trail Boot', 'Name: Trail Boot\nPrice: 129.5\nDescription: Waterproof leather boot\nColour: brown'],
      ['product', 'City Shoe', 'Name: City Shoe\nPrice: 89\nDescription: Light shoe'],
    ]);
  });

  it('maps question/answer columns to Q&A records, header names compared like JSON keys', () => {
    const csv = 'Question,Answer,Category\nDo you ship abroad?,Yes, to the EU.,Shipping\n';
    // The answer cell above is unquoted with a comma: a malformed row. Quoted, it is one cell.
    expectError(() => run(csv, 'csv'), 'validation_failed', { line: 2, reason: 'malformed_csv' });
    const ok = 'Question,Answer,Category\n"Do you ship abroad?","Yes, to the EU.",Shipping\n';
    expect(summary(run(ok, 'csv'))).toEqual([['qa', 'Do you ship abroad?', 'Do you ship abroad?\nYes, to the EU.\nCategory: Shipping']]);
  });

  it('makes other rows text records of "Header: value" lines', () => {
    const csv = 'Day,Opening hours\nMonday,9–17\nSunday,closed\n';
    expect(summary(run(csv, 'csv'))).toEqual([
      ['passage', undefined, 'Day: Monday\nOpening hours: 9–17'],
      ['passage', undefined, 'Day: Sunday\nOpening hours: closed'],
    ]);
  });

  it('reads a BOM, semicolons, CRLF, quoted newlines and skips empty rows', () => {
    const csv = '\uFEFFname;price;description\r\n\r\n"Boot";"12,50 €";"Line one\r\nline two"\r\n;;\r\nShoe;9;Light\r\n';
    expect(summary(run(csv, 'csv'))).toEqual([
      ['product', 'Boot', 'Name: Boot\nPrice: 12,50 €\nDescription: Line one\nline two'],
      ['product', 'Shoe', 'Name: Shoe\nPrice: 9\nDescription: Light'],
    ]);
  });

  it('picks the delimiter from the header line, outside quotes', () => {
    expect(csvDelimiter('a;b;c\n1,2;3;4')).toBe(';');
    expect(csvDelimiter('"a;b",c\n')).toBe(',');
    expect(csvDelimiter('a\tb\n')).toBe('\t');
    expect(csvDelimiter('single\n')).toBe(',');
  });

  it('refuses an unclosed quote with the line the row starts on', () => {
    const err = expectError(() => run('name,price\nBoot,1\n"Shoe,2\nHat,3\n', 'csv'), 'validation_failed', { line: 3, reason: 'malformed_csv' });
    expect(err.message).toMatch(/line 3.*never closed/);
  });

  it('refuses text after a closing quote and rows of the wrong width, with their line', () => {
    expectError(() => run('name,price\n"Bo"ot,1\n', 'csv'), 'validation_failed', { line: 2 });
    const err = expectError(() => run('name,price\nBoot,1\n"multi\nline",2\nShoe,2,extra\n', 'csv'), 'validation_failed', { line: 5 });
    expect(err.message).toContain('3 cells but the header has 2');
    expectError(() => run('name,price,description\nBoot,1\n', 'csv'), 'validation_failed', { line: 2 });
  });

  it('accepts trailing empty cells past the header', () => {
    expect(run('name,price\nBoot,1,,\n', 'csv').records).toHaveLength(1);
  });

  it('lists rows without text as rejections and refuses a header-only file', () => {
    const result = run('id,name\n1,\n2,Hat\n', 'csv');
    expect(summary(result)).toEqual([['passage', 'Hat', 'Name: Hat']]);
    expect(result.rejected).toEqual([{ at: 'line 2', reason: expect.stringContaining('no text') }]);
    expectError(() => run('name,price\n', 'csv'), 'no_extractable_text');
    expectError(() => run('\n\n', 'csv'), 'no_extractable_text');
  });

  it('keeps a column called __proto__ as a column', () => {
    expect(summary(run('__proto__,note\nx,y\n', 'csv'))).toEqual([['passage', undefined, 'Proto: x\nNote: y']]);
  });

  it('refuses bytes that are not UTF-8', () => {
    expectError(() => extract(new Uint8Array([0x61, 0x2c, 0x62, 0x0a, 0xff]), 'csv'), 'invalid_utf8', { offset: 4 });
    expect(bytes('x')).toHaveLength(1);
  });
});

describe('format detection for the new formats', () => {
  it('goes by extension first, then by content type', () => {
    expect(detectFormat('prices.CSV')).toBe('csv');
    expect(detectFormat('manual.pdf', 'text/plain')).toBe('pdf');
    expect(detectFormat('page.htm')).toBe('html');
    expect(detectFormat('page.html', 'application/json')).toBe('html');
    expect(detectFormat('export', 'text/csv; charset=utf-8')).toBe('csv');
    expect(detectFormat('blob', 'application/pdf')).toBe('pdf');
    expect(detectFormat('blob', 'text/html')).toBe('html');
    expect(detectFormat('blob', 'application/xhtml+xml')).toBe('html');
    expect(detectFormat('notes.docx', 'application/octet-stream')).toBeUndefined();
  });
});
