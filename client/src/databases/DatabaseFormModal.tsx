import { Alert, Anchor, Button, Group, Modal, PasswordInput, Stack, Switch, Tabs, Text, TextInput } from '@mantine/core';
import { ENGINE_FORMS, connectEngineOf, missingParameters, PARAMETER_DESCRIPTIONS, type ConnectEngine } from '@meridian/contracts/rules/database-parameters';
import { DatabaseCreateSchema, type DatabaseUpdate, type DatabaseView } from '@meridian/contracts/schemas/database';
import { IconAlertTriangle, IconArrowLeft, IconCircleCheck, IconPlugConnected } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useState, type FormEvent } from 'react';
import { serverFieldErrors, useFormFields, type FieldErrors as FormErrors } from '../components/form-fields';
import { addSuccessToast, toastError } from '../notify';
import { errorOf, trpc } from '../trpc';
import { DatabaseAdvancedSettings } from './DatabaseAdvancedSettings';
import { DATABASE_FLAGS } from './database-flags';
import { emptyFields, fieldsOf, parametersOf, parseExtra, uriHasPassword, type Fields } from './database-form';
import { EngineTiles, engineLabel } from './EngineTiles';
import { CANCEL } from '@meridian/contracts/messages';
import { FormActions } from '../components/FormActions';

type FieldErrors = FormErrors<Fields>;

/** Superset's success message of a connection test. */
export const CONNECTION_LOOKS_GOOD = 'Connection looks good!';
const URI_PLACEHOLDER = 'postgresql://user:password@host:5432/database';
const REQUIRED = 'Missing data for required field.';
const PARAMETER_FIELDS = ['host', 'port', 'database', 'username', 'password', 'query'] as const;

type TestResult = { ok: true } | { ok: false; message: string } | null;
/** How the connection is given: Superset's dynamic form (an engine's parameters) or a SQLAlchemy URI. */
type Method = 'dynamic_form' | 'sqlalchemy_form';

/** The Superset errors of a failed call (`{"errors": [...]}` in the tRPC error's envelope). */
function envelopeErrors(error: unknown): { message: string; extra?: { missing?: string[]; invalid?: string[] } }[] {
  if (!(error instanceof TRPCClientError)) return [];
  const errors = (error.data as { envelope?: { errors?: unknown } } | undefined)?.envelope?.errors;
  return Array.isArray(errors) ? errors : [];
}

/**
 * Connect a database, or edit one (`database` given), as Superset's modal: engine tiles first (PostgreSQL,
 * MySQL/MariaDB, DuckDB, SQLite), then that engine's fields (or a SQLAlchemy URI), a connection test, and the
 * Advanced settings (SQL Lab, Performance, Security, Other).
 */
export function DatabaseFormModal({ database, onClose, onSaved }: { database: DatabaseView | null; onClose: () => void; onSaved: () => void }) {
  const isEdit = database !== null;
  const initial = database ? fieldsOf(database) : emptyFields;
  const storedEngine = database ? connectEngineOf(database.backend) : null;
  const [engine, setEngine] = useState<ConnectEngine | null>(storedEngine);
  // A new connection starts on the engine tiles; an existing one opens as it is stored, a URI.
  const [step, setStep] = useState<'engine' | 'connection'>(isEdit ? 'connection' : 'engine');
  const [method, setMethod] = useState<Method>(isEdit ? 'sqlalchemy_form' : 'dynamic_form');
  const [tab, setTab] = useState<string | null>('basic');
  const [test, setTest] = useState<TestResult>(null);
  const { fields, errors, setErrors, set, text } = useFormFields<Fields>(initial, (key) => {
    if (key === 'sqlalchemy_uri' || (PARAMETER_FIELDS as readonly string[]).includes(key as string) || key === 'encryption') setTest(null);
  });
  const create = useMutation(trpc.database.create.mutationOptions());
  const update = useMutation(trpc.database.update.mutationOptions());
  const testConnection = useMutation(trpc.database.testConnection.mutationOptions());
  const validateParameters = useMutation(trpc.database.validateParameters.mutationOptions());

  const form = engine ? ENGINE_FORMS[engine] : null;
  const useForm = method === 'dynamic_form' && form !== null;
  const extraObject = parseExtra(fields.extra);
  const extraError = extraObject === null ? 'Extra must be a valid JSON object' : undefined;

  const setExtraKey = (key: string, value: unknown) => {
    if (!extraObject) return;
    const next = { ...extraObject };
    if (value === undefined) delete next[key];
    else next[key] = value;
    set('extra', JSON.stringify(next, null, 2));
  };

  const pickEngine = (picked: ConnectEngine) => {
    setEngine(picked);
    setMethod('dynamic_form');
    setStep('connection');
    setTest(null);
    if (!fields.database_name.trim()) set('database_name', ENGINE_FORMS[picked].name);
    if (!fields.port && ENGINE_FORMS[picked].defaultPort) set('port', String(ENGINE_FORMS[picked].defaultPort));
  };

  const parameters = () => (form && engine ? parametersOf(engine, fields, form.fields) : {});

  /** Field errors of the required parameters left empty; true when there were none. */
  const checkParameters = (): boolean => {
    if (!engine) return true;
    const missing = missingParameters(engine, parameters());
    if (!missing.length) return true;
    setErrors((e) => ({ ...e, ...Object.fromEntries(missing.map((m) => [m, REQUIRED])) }));
    return false;
  };

  const runTest = async () => {
    setTest(null);
    if (useForm) {
      if (!checkParameters()) return;
      try {
        await validateParameters.mutateAsync({ engine: engine!, parameters: parameters(), configuration_method: 'dynamic_form', database_name: database?.database_name ?? (fields.database_name.trim() || undefined) });
        setTest({ ok: true });
      } catch (error) {
        // Superset names the fields at fault (`missing`, `invalid`): mark them, and say why.
        const found = envelopeErrors(error);
        const marks: FieldErrors = {};
        for (const e of found) {
          for (const name of e.extra?.missing ?? []) marks[name as keyof Fields] = REQUIRED;
          for (const name of e.extra?.invalid ?? []) marks[name as keyof Fields] = e.message;
        }
        setErrors((prev) => ({ ...prev, ...marks }));
        setTest({ ok: false, message: errorOf(error).error });
      }
      return;
    }
    const uri = fields.sqlalchemy_uri.trim();
    if (!uri) {
      setErrors((e) => ({ ...e, sqlalchemy_uri: 'Enter a connection string to test.' }));
      return;
    }
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
    if (!fields.database_name.trim()) next.database_name = REQUIRED;
    if (!useForm && !fields.sqlalchemy_uri.trim()) next.sqlalchemy_uri = REQUIRED;
    if (extraError) next.extra = extraError;
    const paramsOk = useForm ? checkParameters() : true;
    if (Object.keys(next).length || !paramsOk) {
      setErrors((e) => ({ ...e, ...next }));
      setTab(next.extra && !next.database_name && !next.sqlalchemy_uri && paramsOk ? 'advanced' : 'basic');
      return;
    }
    const connection = useForm ? { engine: engine!, configuration_method: 'dynamic_form' as const, parameters: parameters() } : { sqlalchemy_uri: fields.sqlalchemy_uri.trim() };
    const body = {
      database_name: fields.database_name.trim(),
      ...connection,
      cache_timeout: fields.cache_timeout === '' ? null : fields.cache_timeout,
      force_ctas_schema: fields.force_ctas_schema.trim() || null,
      impersonate_user: fields.impersonate_user,
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
        // Only what changed goes back: an unchanged connection is not re-tested, an unchanged masked password stays stored.
        const changes: DatabaseUpdate = {};
        const before: Record<string, unknown> = {
          ...database,
          extra: JSON.stringify(parseExtra(initial.extra) ?? {}),
          cache_timeout: database.cache_timeout ?? null,
          force_ctas_schema: database.force_ctas_schema ?? null,
          engine: undefined,
          configuration_method: 'dynamic_form',
          parameters: storedEngine && engine === storedEngine ? parametersOf(storedEngine, initial, ENGINE_FORMS[storedEngine].fields) : undefined,
        };
        for (const [key, value] of Object.entries(parsed.data)) {
          if (JSON.stringify(value) !== JSON.stringify(before[key])) (changes as Record<string, unknown>)[key] = value;
        }
        if (changes.parameters) changes.engine = engine!;
        else {
          delete changes.engine;
          delete changes.configuration_method;
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
        setTab(fieldErrors.extra || fieldErrors.cache_timeout || fieldErrors.force_ctas_schema ? 'advanced' : 'basic');
      } else {
        setTab('basic');
        setTest({ ok: false, message: errorOf(error).error });
        toastError(error);
      }
    }
  };

  const busy = create.isPending || update.isPending;
  const fileEngine = engine === 'duckdb' || engine === 'sqlite';
  const storedPassword = isEdit && Boolean(database.parameters?.password);
  const title = isEdit ? `Edit database ${database.database_name}` : 'Connect a database';

  if (step === 'engine') {
    return (
      <Modal opened onClose={onClose} title={title} size="lg">
        <Stack gap="md" aria-label="Connect a database">
          <div>
            <Text fw={600}>Select a database to connect</Text>
            <Text size="sm" c="dimmed">
              Pick its engine to fill in the connection details, or paste a SQLAlchemy URI.
            </Text>
          </div>
          <EngineTiles onPick={pickEngine} />
          <Group justify="space-between" mt="sm">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setEngine(null);
                setMethod('sqlalchemy_form');
                setStep('connection');
              }}
            >
              Connect with a SQLAlchemy URI instead
            </Anchor>
            <Button variant="default" onClick={onClose}>
              {CANCEL}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={isEdit ? 'Edit database' : 'Connect a database'}>
        <Tabs value={tab} onChange={setTab} keepMounted>
          <Tabs.List mb="md">
            <Tabs.Tab value="basic">Basic</Tabs.Tab>
            <Tabs.Tab value="advanced">Advanced</Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="basic">
            <Stack gap="md" mih={360}>
              {!isEdit && (
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {useForm ? `Enter the ${engineLabel(engine!)} connection details` : 'Enter the SQLAlchemy URI of the database'}
                  </Text>
                  <Anchor component="button" type="button" size="sm" onClick={() => setStep('engine')} style={{ whiteSpace: 'nowrap' }}>
                    <Group gap={4} wrap="nowrap">
                      <IconArrowLeft size={14} />
                      Other engine
                    </Group>
                  </Anchor>
                </Group>
              )}
              <TextInput
                label="Display name"
                description="How this database is named in SQL Lab, datasets and charts."
                required
                placeholder="e.g. Analytics warehouse"
                {...text('database_name')}
                data-autofocus
              />

              {useForm ? (
                <>
                  {!fileEngine && (
                    <Group grow align="flex-start" preventGrowOverflow={false} wrap="nowrap">
                      <TextInput style={{ flex: 3 }} label="Host" required placeholder="e.g. 127.0.0.1" description={PARAMETER_DESCRIPTIONS.host} {...text('host')} />
                      <TextInput style={{ flex: 1 }} label="Port" required inputMode="numeric" placeholder={String(form!.defaultPort ?? '')} description={PARAMETER_DESCRIPTIONS.port} {...text('port')} />
                    </Group>
                  )}
                  <TextInput
                    label={fileEngine ? 'Database file path' : 'Database name'}
                    required
                    placeholder={fileEngine ? `e.g. /data/analytics.${engine === 'duckdb' ? 'duckdb' : 'db'}` : 'e.g. analytics'}
                    description={fileEngine ? 'A file on the Meridian server; DuckDB creates it when missing.' : undefined}
                    spellCheck={false}
                    {...text('database')}
                  />
                  {!fileEngine && (
                    <Group grow align="flex-start">
                      <TextInput label="Username" required autoComplete="off" {...text('username')} />
                      <PasswordInput
                        label="Password"
                        autoComplete="new-password"
                        description={storedPassword ? 'Shown masked: leave it to keep the stored password.' : undefined}
                        {...text('password')}
                      />
                    </Group>
                  )}
                  {form!.fields.includes('query') && (
                    <TextInput label="Additional parameters" placeholder="e.g. param1=value1&param2=value2" spellCheck={false} {...text('query')} />
                  )}
                  {form!.fields.includes('encryption') && (
                    <Switch label="SSL" description={PARAMETER_DESCRIPTIONS.encryption} checked={fields.encryption} onChange={(e) => set('encryption', e.currentTarget.checked)} />
                  )}
                  <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setMethod('sqlalchemy_form')}>
                    Connect this database with a SQLAlchemy URI string instead
                  </Anchor>
                </>
              ) : (
                <>
                  <TextInput
                    label="SQLAlchemy URI"
                    description={
                      isEdit && uriHasPassword(fields.sqlalchemy_uri)
                        ? 'The password is shown masked; leave it masked to keep the stored one.'
                        : `Supported: postgresql://, mysql://, duckdb:///path/to/file.duckdb, sqlite:///path/to/file.db`
                    }
                    required
                    autoComplete="off"
                    spellCheck={false}
                    placeholder={form?.sqlalchemyUriPlaceholder ?? URI_PLACEHOLDER}
                    {...text('sqlalchemy_uri')}
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-sm)' } }}
                  />
                  {engine && (!isEdit || database.parameters) && (
                    <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setMethod('dynamic_form')}>
                      Connect this database using the dynamic form instead
                    </Anchor>
                  )}
                </>
              )}

              <div>
                <Button variant="light" leftSection={<IconPlugConnected size={16} />} loading={testConnection.isPending || validateParameters.isPending} onClick={() => void runTest()}>
                  Test connection
                </Button>
              </div>
              {test?.ok && (
                <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title={CONNECTION_LOOKS_GOOD} role="status">
                  Meridian reached the database with these connection details.
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

          <Tabs.Panel value="advanced">
            <DatabaseAdvancedSettings fields={fields} errors={errors} set={set} extraObject={extraObject} extraError={extraError} setExtraKey={setExtraKey} />
          </Tabs.Panel>
        </Tabs>

        <FormActions onCancel={onClose} busy={busy} submitLabel={isEdit ? 'Save' : 'Connect'} mt="xl" />
      </form>
    </Modal>
  );
}
