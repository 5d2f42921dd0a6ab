import { Alert, Button, Checkbox, Collapse, FileInput, Group, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, TagsInput, Text, TextInput, UnstyledButton } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { UPLOAD_EXTENSIONS, type UploadType } from '@meridian/contracts/rules/upload';
import { IconChevronDown, IconChevronRight, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError } from '../api';
import { addSuccessToast } from '../notify';
import { trpc } from '../trpc';

export type { UploadType };

const accept = (type: UploadType) => UPLOAD_EXTENSIONS[type].map((e) => `.${e}`).join(',');

/** Each type's title, the extensions it takes, and what its file is called. */
export const UPLOAD_TYPES: Record<UploadType, { title: string; accept: string; noun: string }> = {
  csv: { title: 'Upload CSV to database', accept: accept('csv'), noun: 'CSV' },
  excel: { title: 'Upload Excel to database', accept: accept('excel'), noun: 'Excel file' },
  columnar: { title: 'Upload Columnar file to database', accept: accept('columnar'), noun: 'Columnar file' },
};

type Sheet = { column_names: string[]; sheet_name?: string };

/**
 * Superset's upload form: a file, the database and schema it goes into, the table's name, what to do when the
 * table exists, and how to read the file (delimiter, sheet, header row, rows and columns, dates, nulls). The
 * file's columns and sheets come from `upload_metadata/` as soon as it is chosen. Mounted per opening, so each
 * starts empty.
 */
export function UploadDataModal({ type, onClose, onUploaded }: { type: UploadType | null; onClose: () => void; onUploaded: (table: string) => void }) {
  const kind = type ?? 'csv';
  const [file, setFile] = useState<File | null>(null);
  const [sheets, setSheets] = useState<Sheet[]>([]);
  const [database, setDatabase] = useState<string | null>(null);
  const [schema, setSchema] = useState<string | null>(null);
  const [table, setTable] = useState('');
  const [exists, setExists] = useState<string>('fail');
  const [delimiter, setDelimiter] = useState(',');
  const [sheet, setSheet] = useState<string | null>(null);
  const [headerRow, setHeaderRow] = useState<number | string>(0);
  const [skipRows, setSkipRows] = useState<number | string>(0);
  const [rowsToRead, setRowsToRead] = useState<number | string>('');
  const [columnsRead, setColumnsRead] = useState<string[]>([]);
  const [columnDates, setColumnDates] = useState<string[]>([]);
  const [nullValues, setNullValues] = useState<string[]>([]);
  const [decimal, setDecimal] = useState('.');
  const [dayFirst, setDayFirst] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const databases = useQuery({ ...trpc.database.list.queryOptions({ page_size: 1000, order_column: 'database_name', order_direction: 'asc' }), enabled: type !== null });
  const uploadable = (databases.data?.result ?? []).filter((d) => d.allow_file_upload);
  const schemas = useQuery({
    queryKey: ['upload-schemas', database],
    queryFn: () => api<{ schemas: string[] }>(`/api/v1/database/${database}/schemas_access_for_file_upload/`),
    enabled: !!database,
  });

  useEffect(() => {
    if (uploadable.length === 1 && !database) setDatabase(String(uploadable[0]!.id));
  }, [uploadable, database]);

  /** Reads the chosen file's columns (and sheets); names the table after the file. */
  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setSheets([]);
    setErrors({});
    setFailure('');
    if (!chosen) return;
    if (!table) setTable(chosen.name.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_]+/g, '_').toLowerCase());
    const form = new FormData();
    form.append('type', kind);
    form.append('file', chosen);
    if (kind === 'csv') form.append('delimiter', delimiter);
    try {
      const answer = await api<{ result: { items: Sheet[] } }>('/api/v1/database/upload_metadata/', { method: 'POST', form });
      setSheets(answer.result.items);
      if (kind === 'excel') setSheet(answer.result.items[0]?.sheet_name ?? null);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      setErrors({ file: e.message });
    }
  };

  const columns = (kind === 'excel' ? sheets.find((s) => s.sheet_name === sheet) : sheets[0])?.column_names ?? [];

  const submit = async () => {
    const missing: Record<string, string> = {};
    if (!file) missing.file = 'Select a file to upload.';
    if (!database) missing.database = 'Select a database to upload the file to.';
    if (!table.trim()) missing.table_name = 'Missing data for required field.';
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const form = new FormData();
    const put = (name: string, value: string | number | boolean | null | undefined) => {
      if (value !== null && value !== undefined) form.append(name, String(value));
    };
    put('type', kind);
    form.append('file', file!);
    put('table_name', table.trim());
    put('schema', schema);
    put('already_exists', exists);
    put('header_row', headerRow === '' ? '' : headerRow);
    put('skip_rows', skipRows === '' ? 0 : skipRows);
    if (rowsToRead !== '') put('rows_to_read', rowsToRead);
    if (columnsRead.length) put('columns_read', columnsRead.join(','));
    if (kind !== 'columnar') {
      if (columnDates.length) put('column_dates', columnDates.join(','));
      if (nullValues.length) put('null_values', nullValues.join(','));
      if (decimal && decimal !== '.') put('decimal_character', decimal);
    }
    if (kind === 'csv') {
      put('delimiter', delimiter);
      put('day_first', dayFirst);
    }
    if (kind === 'excel' && sheet) put('sheet_name', sheet);
    setBusy(true);
    setFailure('');
    try {
      await api(`/api/v1/database/${database}/upload/`, { method: 'POST', form });
      addSuccessToast(`${UPLOAD_TYPES[kind].noun} uploaded to table ${table.trim()}`);
      onUploaded(table.trim());
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const fields = e.clientError.message;
      if (fields && typeof fields === 'object') setErrors(Object.fromEntries(Object.entries(fields as Record<string, string[]>).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)])));
      else setFailure(e.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={type !== null} onClose={onClose} title={UPLOAD_TYPES[kind].title} size="lg">
      <Stack gap="md">
        {databases.data && uploadable.length === 0 && (
          <Alert color="yellow" variant="light">
            No database allows file uploads. An admin can allow them in a database's settings (Security → Allow file uploads to database).
          </Alert>
        )}
        <FileInput label={UPLOAD_TYPES[kind].noun} placeholder={`Select a ${UPLOAD_TYPES[kind].noun} (${UPLOAD_TYPES[kind].accept.replaceAll(',', ', ')})`} accept={UPLOAD_TYPES[kind].accept} value={file} onChange={(f) => void choose(f)} error={errors.file} leftSection={<IconUpload size={16} />} clearable required />
        {columns.length > 0 && (
          <Text size="xs" c="dimmed">
            Columns: {columns.join(', ')}
          </Text>
        )}
        <SimpleGrid cols={2}>
          <Select label="Database" required data={uploadable.map((d) => ({ value: String(d.id), label: d.database_name }))} value={database} onChange={(v) => (setDatabase(v), setSchema(null))} error={errors.database} placeholder="Select a database" />
          <Select label="Schema" data={schemas.data?.schemas ?? []} value={schema} onChange={setSchema} placeholder={database ? 'Default schema' : 'Select a database first'} disabled={!database} clearable searchable />
        </SimpleGrid>
        <SimpleGrid cols={2}>
          <TextInput label="Table name" required value={table} onChange={(e) => setTable(e.currentTarget.value)} error={errors.table_name} />
          <Select
            label="If table already exists"
            data={[
              { value: 'fail', label: 'Fail' },
              { value: 'replace', label: 'Replace' },
              { value: 'append', label: 'Append' },
            ]}
            value={exists}
            onChange={(v) => setExists(v ?? 'fail')}
            allowDeselect={false}
          />
        </SimpleGrid>
        {kind === 'csv' && <TextInput label="Delimiter" description="The character between values: a comma, a semicolon, a tab…" value={delimiter} onChange={(e) => setDelimiter(e.currentTarget.value)} error={errors.delimiter} maw={240} />}
        {kind === 'excel' && <Select label="Sheet name" data={sheets.map((s) => s.sheet_name ?? '')} value={sheet} onChange={setSheet} placeholder="The first sheet" maw={320} />}
        <UnstyledButton onClick={() => setAdvanced((a) => !a)} aria-expanded={advanced}>
          <Group gap={6}>
            {advanced ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            <Text size="sm" fw={600}>
              Columns and rows
            </Text>
          </Group>
        </UnstyledButton>
        <Collapse expanded={advanced}>
          <Stack gap="sm">
            <MultiSelect label="Columns to read" description="Only these columns are uploaded; all when empty." data={columns} value={columnsRead} onChange={setColumnsRead} searchable clearable />
            {kind !== 'columnar' && <MultiSelect label="Columns to be parsed as dates" data={columns} value={columnDates} onChange={setColumnDates} searchable clearable />}
            {kind !== 'columnar' && (
              <SimpleGrid cols={3}>
                <NumberInput label="Header row" description="Rows before the header; empty: no header" min={0} value={headerRow} onChange={setHeaderRow} allowDecimal={false} />
                <NumberInput label="Rows to skip" min={0} value={skipRows} onChange={setSkipRows} allowDecimal={false} error={errors.skip_rows} />
                <NumberInput label="Rows to read" description="All when empty" min={1} value={rowsToRead} onChange={setRowsToRead} allowDecimal={false} error={errors.rows_to_read} />
              </SimpleGrid>
            )}
            {kind !== 'columnar' && (
              <SimpleGrid cols={2}>
                <TagsInput label="Null values" description="Values read as null, e.g. N/A" value={nullValues} onChange={setNullValues} />
                <TextInput label="Decimal character" maxLength={1} value={decimal} onChange={(e) => setDecimal(e.currentTarget.value)} error={errors.decimal_character} />
              </SimpleGrid>
            )}
            {kind === 'csv' && <Checkbox label="Dates are day first (DD/MM/YYYY)" checked={dayFirst} onChange={(e) => setDayFirst(e.currentTarget.checked)} />}
          </Stack>
        </Collapse>
        {failure && (
          <Alert color="red" variant="light" title="The file was not uploaded">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {CANCEL}
          </Button>
          <Button onClick={() => void submit()} loading={busy}>
            Upload
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
