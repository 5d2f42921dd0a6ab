/** The file extensions each upload type takes (Superset's CSV_EXTENSIONS, EXCEL_EXTENSIONS, COLUMNAR_EXTENSIONS). */
export const UPLOAD_EXTENSIONS = { csv: ['csv', 'tsv', 'txt'], excel: ['xls', 'xlsx'], columnar: ['parquet'] } as const;
export type UploadType = keyof typeof UPLOAD_EXTENSIONS;

/** Whether a file name's extension is one the upload type takes. */
export function uploadExtensionAllowed(type: UploadType, filename: string): boolean {
  const dot = filename.lastIndexOf('.');
  const ext = dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
  return (UPLOAD_EXTENSIONS[type] as readonly string[]).includes(ext);
}
