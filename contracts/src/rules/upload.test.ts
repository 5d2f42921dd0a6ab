import { describe, expect, it } from 'vitest';
import { uploadExtensionAllowed } from './upload';

describe("upload file extensions (Superset's CSV, Excel and columnar extensions)", () => {
  it('takes each type by its extensions, whatever their case, and refuses the others', () => {
    expect(uploadExtensionAllowed('csv', 'sales.CSV')).toBe(true);
    expect(uploadExtensionAllowed('csv', 'notes.txt')).toBe(true);
    expect(uploadExtensionAllowed('excel', 'notes.txt')).toBe(false);
    expect(uploadExtensionAllowed('excel', 'book.xlsx')).toBe(true);
    expect(uploadExtensionAllowed('columnar', 'items.parquet')).toBe(true);
    expect(uploadExtensionAllowed('columnar', 'parquet')).toBe(false);
  });
});
