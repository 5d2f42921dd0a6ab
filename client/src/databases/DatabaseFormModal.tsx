import { Alert, Box, Button, Group, JsonInput, Modal, NumberInput, Stack, Switch, Tabs, Text, TextInput } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { DatabaseCreateSchema, type DatabaseUpdate, type DatabaseView } from '@meridian/contracts/schemas/database';
import { IconAlertTriangle, IconCircleCheck, IconPlugConnected } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { serverFieldErrors, useFormFields, type FieldErrors as FormErrors } from '../components/form-fields';
import { addSuccessToast, toastError } from '../notify';
import { errorOf, trpc } from '../trpc';
import { DATABASE_FLAGS, type DatabaseFlag } from './database-flags';

type Fields = {
  database_name: string;
  sqlalchemy_uri: string;
  cache_timeout: number | '';
  force_ctas_schema: string;
  extra: string;
} & Record<DatabaseFlag, boolean>;
type FieldErrors = FormErrors<Fields>;

/** Superset's success message of a connection test. */
export const CONNECTION_LOOKS_GOOD = 'Connection looks good!';
const URI_PLACEHOLDER = 'postgresql://user:password@host:5432/database';

const emptyFields: Fields = {
  database_name: '',
  sqlalchemy_uri: '',
  cache_timeout: '',
  force_ctas_schema: '',
  extra: '{}',
  expose_in_sqllab: true,
  allow_run_async: false,
  allow_dml: false,
  allow_ctas: false,
  allow_cvas: false,
  allow_file_upload: false,
};

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text || '{}'), null, 2);
  } catch {
    return text;
  }
}

const fieldsOf = (db: DatabaseView): Fields => ({
  database_name: db.database_name,
  sqlalchemy_uri: db.sqlalchemy_uri,
  cache_timeout: db.cache_timeout ?? '',
  force_ctas_schema: db.force_ctas_schema ?? '',
  extra: prettyJson(db.extra),
  expose_in_sqllab: db.expose_in_sqllab,
  allow_run_async: db.allow_run_async,
  allow_dml: db.allow_dml,
  allow_ctas: db.allow_ctas,
  allow_cvas: db.allow_cvas,
  allow_file_upload: db.allow_file_upload,
});

/** The extra JSON as an object, or null when it is not a JSON object. */
function parseExtra(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The tab holding the first field with an error. */
function tabOf(errors: FieldErrors): string {
  if (errors.database_name || errors.sqlalchemy_uri) return 'connection';
  if (errors.force_ctas_schema) return 'sqllab';
  if (errors.cache_timeout) return 'performance';
  return errors.extra ? 'other' : 'connection';
}

type TestResult = { ok: true } | { ok: false; message: string } | null;

/**
 * Connect a database, or edit one (`database` given): name, SQLAlchemy URI (masked when editing; a masked
 * password keeps the stored one), connection test, SQL Lab switches, cache timeout and the `extra` JSON.
 */
export function DatabaseFormModal({ database, onClose, onSaved }: { database: DatabaseView | null; onClose: () => void; onSaved: () => void }) {
  const isEdit = database !== null;
  const initial = database ? fieldsOf(database) : emptyFields;
  const [tab, setTab] = useState<string | null>('connection');
  const [test, setTest] = useState<TestResult>(null);
  const { fields, errors, setErrors, set } = useFormFields<Fields>(initial, (key) => {
    if (key === 'sqlalchemy_uri') setTest(null);
  });
  const create = useMutation(trpc.database.create.mutationOptions());
  const update = useMutation(trpc.database.update.mutationOptions());
  const testConnection = useMutation(trpc.database.testConnection.mutationOptions());

  const extraObject = parseExtra(fields.extra);
  const extraError = extraObject === null ? 'Extra must be a valid JSON object' : undefined;

  const setDisablePreview = (on: boolean) => {
    if (!extraObject) return;
    const next = { ...extraObject };
    if (on) next.disable_data_preview = true;
    else delete next.disable_data_preview;
    set('extra', JSON.stringify(next, null, 2));
  };

  const runTest = async () => {
    const uri = fields.sqlalchemy_uri.trim();
    if (!uri) {
      setErrors((e) => ({ ...e, sqlalchemy_uri: 'Enter a connection string to test.' }));
      return;
    }
    setTest(null);
    try {
      await testConnection.mutateAsync({
        sqlalchemy_uri: uri,
        // The stored password is found by the database's saved name when the URI comes back masked.
        database_name: database?.database_name ?? (fields.database_name.trim() || undefined),
        ...(extraObject ? { extra: JSON.stringify(extraObject) } : {}),
      });
      setTest({ ok: true });
    } catch (error) {
      setTest({ ok: false, message: errorOf(error).error });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: FieldErrors = {};
    if (!fields.database_name.trim()) next.database_name = 'Missing data for required field.';
    if (!fields.sqlalchemy_uri.trim()) next.sqlalchemy_uri = 'Missing data for required field.';
    if (extraError) next.extra = extraError;
    if (Object.keys(next).length) {
      setErrors(next);
      setTab(next.database_name || next.sqlalchemy_uri ? 'connection' : 'other');
      return;
    }
    const body = {
      database_name: fields.database_name.trim(),
      sqlalchemy_uri: fields.sqlalchemy_uri.trim(),
      cache_timeout: fields.cache_timeout === '' ? null : fields.cache_timeout,
      force_ctas_schema: fields.force_ctas_schema.trim() || null,
      extra: JSON.stringify(extraObject ?? {}),
      ...Object.fromEntries(DATABASE_FLAGS.map((f) => [f.key, fields[f.key]])),
    };
    const parsed = DatabaseCreateSchema.safeParse(body);
    if (!parsed.success) {
      const out: FieldErrors = {};
      for (const issue of parsed.error.issues) out[issue.path[0] as keyof Fields] ??= issue.message;
      setErrors(out);
      return;
    }
    try {
      if (isEdit) {
        // Only what changed goes back: an unchanged URI is not re-tested, an unchanged masked password stays stored.
        const changes: DatabaseUpdate = {};
        for (const [key, value] of Object.entries(parsed.data) as [keyof DatabaseUpdate, unknown][]) {
          const before = key === 'extra' ? JSON.stringify(parseExtra(initial.extra) ?? {}) : key === 'cache_timeout' ? (database.cache_timeout ?? null) : key === 'force_ctas_schema' ? (database.force_ctas_schema ?? null) : (database as unknown as Record<string, unknown>)[key];
          if (value !== before) (changes as Record<string, unknown>)[key] = value;
        }
        if (Object.keys(changes).length) await update.mutateAsync({ id: database.id, changes });
        addSuccessToast(`Changes to ${parsed.data.database_name} saved`);
      } else {
        await create.mutateAsync(parsed.data);
        addSuccessToast(`Database ${parsed.data.database_name} connected`);
      }
      onSaved();
      onClose();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, emptyFields);
      if (fieldErrors) {
        setErrors(fieldErrors);
        setTab(tabOf(fieldErrors));
      } else {
        setTab('connection');
        setTest({ ok: false, message: errorOf(error).error });
        toastError(error);
      }
    }
  };

  const busy = create.isPending || update.isPending;
  const flagSwitch = (key: DatabaseFlag) => {
    const flag = DATABASE_FLAGS.find((f) => f.key === key)!;
    return <Switch key={key} label={flag.label} description={flag.description} checked={fields[key]} onChange={(e) => set(key, e.currentTarget.checked)} />;
  };
  const ctasOrCvas = fields.allow_ctas || fields.allow_cvas;

  return (
    <Modal opened onClose={onClose} title={isEdit ? `Edit database ${database.database_name}` : 'Connect a database'} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={isEdit ? 'Edit database' : 'Connect a database'}>
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="connection">Connection</Tabs.Tab>
            <Tabs.Tab value="sqllab">SQL Lab</Tabs.Tab>
            <Tabs.Tab value="performance">Performance</Tabs.Tab>
            <Tabs.Tab value="other">Other</Tabs.Tab>
          </Tabs.List>
          <Box mih={330}>

          <Tabs.Panel value="connection">
            <Stack gap="md">
              <TextInput
                label="Display name"
                description="How this database is named in SQL Lab, datasets and charts."
                required
                placeholder="e.g. Analytics warehouse"
                value={fields.database_name}
                error={errors.database_name}
                onChange={(e) => set('database_name', e.currentTarget.value)}
                data-autofocus
              />
              <TextInput
                label="SQLAlchemy URI"
                description={
                  isEdit
                    ? 'The password is shown masked; leave it masked to keep the stored one.'
                    : 'Supported: postgresql://, mysql://, duckdb:///path/to/file.duckdb, sqlite:///path/to/file.db'
                }
                required
                autoComplete="off"
                spellCheck={false}
                placeholder={URI_PLACEHOLDER}
                value={fields.sqlalchemy_uri}
                error={errors.sqlalchemy_uri}
                onChange={(e) => set('sqlalchemy_uri', e.currentTarget.value)}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-sm)' } }}
              />
              <div>
                <Button variant="light" leftSection={<IconPlugConnected size={16} />} loading={testConnection.isPending} onClick={() => void runTest()}>
                  Test connection
                </Button>
              </div>
              {test?.ok && (
                <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title={CONNECTION_LOOKS_GOOD} role="status">
                  Meridian reached the database with this connection string.
                </Alert>
              )}
              {test && !test.ok && (
                <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Connection failed">
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {test.message}
                  </Text>
                </Alert>
              )}
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="sqllab">
            <Stack gap="md">
              {(['expose_in_sqllab', 'allow_dml', 'allow_ctas', 'allow_cvas'] as const).map((key) => flagSwitch(key))}
              {ctasOrCvas && (
                <TextInput
                  label="CTAS & CVAS schema"
                  description="Force all tables and views created by CREATE TABLE AS / CREATE VIEW AS into this schema."
                  placeholder="e.g. scratch"
                  value={fields.force_ctas_schema}
                  error={errors.force_ctas_schema}
                  onChange={(e) => set('force_ctas_schema', e.currentTarget.value)}
                />
              )}
              <Switch
                label="Disable SQL Lab data preview queries"
                description="Do not run a preview query when a table is opened in SQL Lab (sets disable_data_preview in Extra)."
                checked={extraObject?.disable_data_preview === true}
                disabled={!extraObject}
                onChange={(e) => setDisablePreview(e.currentTarget.checked)}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="performance">
            <Stack gap="md">
              {flagSwitch('allow_run_async')}
              <NumberInput
                maw={360}
                label="Chart cache timeout"
                description="Seconds; 0 never expires, -1 bypasses the cache, empty uses the default."
                min={-1}
                allowDecimal={false}
                value={fields.cache_timeout}
                error={errors.cache_timeout}
                onChange={(value) => set('cache_timeout', value === '' ? '' : Number(value))}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="other">
            <Stack gap="md">
              {flagSwitch('allow_file_upload')}
              <JsonInput
                label="Extra"
                description="JSON of engine and metadata parameters (engine_params, metadata_cache_timeout, schemas_allowed_for_file_upload, ...)."
                autosize
                minRows={6}
                maxRows={12}
                formatOnBlur={!extraError}
                value={fields.extra}
                error={errors.extra ?? extraError}
                onChange={(value) => set('extra', value)}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' } }}
              />
            </Stack>
          </Tabs.Panel>
          </Box>
        </Tabs>

        <Group justify="flex-end" gap="sm" mt="xl">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {CANCEL}
          </Button>
          <Button type="submit" loading={busy}>
            {isEdit ? 'Save' : 'Connect'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
