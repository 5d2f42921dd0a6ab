import { Alert, Button, FileInput, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { CANCEL } from '@meridian/contracts/messages';
import { IconFileZip } from '@tabler/icons-react';
import { useState } from 'react';
import { api, ApiError } from '../api';
import { addSuccessToast } from '../notify';

const OVERWRITE = 'OVERWRITE';

/** What an import brings in, in the words its messages use. */
export type ImportNoun = 'dashboard' | 'chart' | 'dataset' | 'database' | 'saved query';
const plural = (noun: ImportNoun) => (noun === 'saved query' ? 'saved queries' : `${noun}s`);

/** What a refused import asks for: passwords of new databases, or confirmation to overwrite what exists. */
function needsOf(error: ApiError): { passwords: string[]; overwrite: boolean; message: string } {
  const extra = (error.clientError.errors?.[0]?.extra ?? {}) as Record<string, unknown>;
  const passwords: string[] = [];
  let overwrite = false;
  const other: string[] = [];
  for (const [file, problem] of Object.entries(extra)) {
    if (file === 'issue_codes') continue;
    const text = JSON.stringify(problem);
    if (file.startsWith('databases/') && text.includes('Must provide a password for the database')) passwords.push(file);
    else if (text.includes('already exists and `overwrite=true` was not passed')) overwrite = true;
    else other.push(`${file}: ${typeof problem === 'string' ? problem : text}`);
  }
  return { passwords, overwrite, message: other.length ? other.join('\n') : (passwords.length || overwrite ? '' : error.message) };
}

/**
 * Superset's import modal: pick an export zip, then supply what the server asks for (the passwords of new
 * databases, a typed OVERWRITE for objects that exist) and send it again.
 */
export function ImportModal({ opened, onClose, noun, endpoint, onImported }: { opened: boolean; onClose: () => void; noun: ImportNoun; endpoint: string; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [passwordFiles, setPasswordFiles] = useState<string[]>([]);
  const [passwords, setPasswords] = useState<Record<string, string>>({});
  const [askOverwrite, setAskOverwrite] = useState(false);
  const [confirmText, setConfirmText] = useState('');

  const reset = () => {
    setFile(null);
    setError('');
    setPasswordFiles([]);
    setPasswords({});
    setAskOverwrite(false);
    setConfirmText('');
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    if (!file) return;
    setBusy(true);
    setError('');
    const form = new FormData();
    form.append('formData', file);
    if (Object.keys(passwords).length) form.append('passwords', JSON.stringify(passwords));
    form.append('overwrite', askOverwrite && confirmText === OVERWRITE ? 'true' : 'false');
    try {
      await api(endpoint, { method: 'POST', form });
      addSuccessToast(`${noun[0]!.toUpperCase()}${noun.slice(1)} imported`);
      onImported();
      close();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const needs = needsOf(e);
      setPasswordFiles(needs.passwords);
      if (needs.overwrite) setAskOverwrite(true);
      setError(needs.message);
    } finally {
      setBusy(false);
    }
  };
  const blocked = !file || (askOverwrite && confirmText !== OVERWRITE) || passwordFiles.some((f) => !passwords[f]);

  return (
    <Modal opened={opened} onClose={close} title={`Import ${noun}`} size="md">
      <Stack gap="md">
        <FileInput
          label="File"
          placeholder="Select file"
          accept=".zip,application/zip"
          leftSection={<IconFileZip size={16} />}
          value={file}
          onChange={(f) => {
            reset();
            setFile(f);
          }}
          clearable
        />
        {passwordFiles.length > 0 && (
          <Stack gap="xs">
            <Text size="sm">The passwords for the databases below are needed in order to import them together with the {plural(noun)}.</Text>
            {passwordFiles.map((f) => (
              <PasswordInput key={f} label={`${f} password`} value={passwords[f] ?? ''} onChange={(e) => setPasswords({ ...passwords, [f]: e.currentTarget.value })} />
            ))}
          </Stack>
        )}
        {askOverwrite && (
          <Stack gap="xs">
            <Alert color="yellow" variant="light">
              You are importing one or more {plural(noun)} that already exist. Overwriting might cause you to lose some of your work. Are you sure you want to overwrite?
            </Alert>
            <TextInput label={`Type "${OVERWRITE}" to confirm`} value={confirmText} onChange={(e) => setConfirmText(e.currentTarget.value)} />
          </Stack>
        )}
        {error && (
          <Alert color="red" variant="light" style={{ whiteSpace: 'pre-wrap' }}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={busy}>
            {CANCEL}
          </Button>
          <Button onClick={() => void submit()} loading={busy} disabled={blocked}>
            {askOverwrite ? 'Overwrite' : 'Import'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
