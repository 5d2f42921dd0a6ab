import { Accordion, JsonInput, NumberInput, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import type { FieldErrors } from '../components/form-fields';
import { DATABASE_FLAGS, type DatabaseFlag } from './database-flags';
import type { Fields } from './database-form';

interface Props {
  fields: Fields;
  errors: FieldErrors<Fields>;
  set: <K extends keyof Fields>(key: K, value: Fields[K]) => void;
  /** The extra JSON parsed, or null while it is not a JSON object (its switches are then disabled). */
  extraObject: Record<string, unknown> | null;
  extraError: string | undefined;
  /** Sets (or, with undefined, removes) one key of the extra JSON. */
  setExtraKey: (key: string, value: unknown) => void;
}

/** The connect modal's Advanced settings, in Superset's sections: SQL Lab, Performance, Security, Other. */
export function DatabaseAdvancedSettings({ fields, errors, set, extraObject, extraError, setExtraKey }: Props) {
  const flagSwitch = (key: DatabaseFlag) => {
    const flag = DATABASE_FLAGS.find((f) => f.key === key)!;
    return <Switch key={key} label={flag.label} description={flag.description} checked={fields[key]} onChange={(e) => set(key, e.currentTarget.checked)} />;
  };
  const ctasOrCvas = fields.allow_ctas || fields.allow_cvas;
  return (
    <Accordion multiple defaultValue={['sqllab']} variant="separated" mih={360}>
      <Accordion.Item value="sqllab">
        <Accordion.Control>
          <Text fw={500}>SQL Lab</Text>
          <Text size="xs" c="dimmed">
            Adjust how this database will interact with SQL Lab.
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
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
              onChange={(e) => setExtraKey('disable_data_preview', e.currentTarget.checked ? true : undefined)}
            />
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="performance">
        <Accordion.Control>
          <Text fw={500}>Performance</Text>
          <Text size="xs" c="dimmed">
            Adjust performance settings of this database.
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
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
            {flagSwitch('allow_run_async')}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="security">
        <Accordion.Control>
          <Text fw={500}>Security</Text>
          <Text size="xs" c="dimmed">
            Who the database sees, and what may be uploaded into it.
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
            <Switch
              label="Impersonate logged in user"
              description="Run queries as the signed-in user, for engines that support it."
              checked={fields.impersonate_user}
              onChange={(e) => set('impersonate_user', e.currentTarget.checked)}
            />
            {flagSwitch('allow_file_upload')}
            {fields.allow_file_upload && (
              <TagsInput
                label="Schemas allowed for file upload"
                description="Empty allows every schema (sets schemas_allowed_for_file_upload in Extra)."
                placeholder="Type a schema and press Enter"
                disabled={!extraObject}
                value={Array.isArray(extraObject?.schemas_allowed_for_file_upload) ? (extraObject.schemas_allowed_for_file_upload as string[]) : []}
                onChange={(value) => setExtraKey('schemas_allowed_for_file_upload', value.length ? value : undefined)}
              />
            )}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="other">
        <Accordion.Control>
          <Text fw={500}>Other</Text>
          <Text size="xs" c="dimmed">
            Engine and metadata parameters, as JSON.
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
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
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
