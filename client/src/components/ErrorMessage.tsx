import { Alert, Anchor, Button, Group, List, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ChartError } from '@meridian/contracts/explore/chart-state';
import { CLOSE, COPY_MESSAGE, ErrorTypeEnum, REQUEST_ACCESS, SEE_LESS, SEE_MORE, UNEXPECTED_ERROR_TITLE } from '@meridian/contracts/messages';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { copyWithToast } from '../query-history/app-link';
import classes from './ErrorMessage.module.css';

interface IssueCode {
  code: number;
  message: string;
}

/** How a known error type is drawn: its title, and what 'See more' shows. */
type ErrorRenderer = (error: ChartError) => { title: string; details: ReactNode; detailsText: string };

const issueCodesOf = (error: ChartError): IssueCode[] => (Array.isArray(error.extra?.issue_codes) ? (error.extra.issue_codes as IssueCode[]).filter((c) => typeof c?.message === 'string') : []);

/** The issue codes an error carries ('Issue 1002 - The database returned an unexpected error.'), as Superset lists them. */
function withIssueCodes(title: (error: ChartError) => string): ErrorRenderer {
  return (error) => {
    const codes = issueCodesOf(error);
    return {
      title: title(error),
      detailsText: codes.length ? `This may be triggered by:\n${codes.map((c) => c.message).join('\n')}` : '',
      details: codes.length ? (
        <>
          <Text size="sm">This may be triggered by:</Text>
          <List size="sm" data-testid="error-issue-codes">
            {codes.map((c) => (
              <List.Item key={c.code}>{c.message}</List.Item>
            ))}
          </List>
        </>
      ) : null,
    };
  };
}

const databaseError = withIssueCodes((error) => `${typeof error.extra?.engine_name === 'string' && error.extra.engine_name ? error.extra.engine_name : 'DB engine'} Error`);
const timeoutError = withIssueCodes(() => 'Timeout error');

/** Spec 01 §8: 'Registered components render a known error type specially'. */
const RENDERERS: Partial<Record<string, ErrorRenderer>> = {
  [ErrorTypeEnum.FRONTEND_TIMEOUT_ERROR]: timeoutError,
  [ErrorTypeEnum.BACKEND_TIMEOUT_ERROR]: timeoutError,
  [ErrorTypeEnum.SQLLAB_TIMEOUT_ERROR]: timeoutError,
  ...Object.fromEntries(
    [
      ErrorTypeEnum.GENERIC_DB_ENGINE_ERROR,
      ErrorTypeEnum.COLUMN_DOES_NOT_EXIST_ERROR,
      ErrorTypeEnum.TABLE_DOES_NOT_EXIST_ERROR,
      ErrorTypeEnum.SCHEMA_DOES_NOT_EXIST_ERROR,
      ErrorTypeEnum.SYNTAX_ERROR,
      ErrorTypeEnum.CONNECTION_INVALID_USERNAME_ERROR,
      ErrorTypeEnum.CONNECTION_INVALID_PASSWORD_ERROR,
      ErrorTypeEnum.CONNECTION_INVALID_HOSTNAME_ERROR,
      ErrorTypeEnum.CONNECTION_PORT_CLOSED_ERROR,
      ErrorTypeEnum.CONNECTION_INVALID_PORT_ERROR,
      ErrorTypeEnum.CONNECTION_HOST_DOWN_ERROR,
      ErrorTypeEnum.CONNECTION_ACCESS_DENIED_ERROR,
      ErrorTypeEnum.CONNECTION_UNKNOWN_DATABASE_ERROR,
      ErrorTypeEnum.CONNECTION_DATABASE_PERMISSIONS_ERROR,
      ErrorTypeEnum.CONNECTION_MISSING_PARAMETERS_ERROR,
    ].map((type) => [type, databaseError]),
  ),
};

/** Spec 01 §8: the first error's link (an access request) is offered as '(Request Access)'. */
export const linkOf = (error: ChartError | null): string | null => (typeof error?.extra?.link === 'string' ? error.extra.link : null);

/**
 * Spec 01 §6: automated browsers (webdriver, as the Chromium that takes report screenshots) always show error
 * details inline, so a screenshot says why a chart failed: the box whole, its details open.
 */
const AUTOMATED = typeof navigator !== 'undefined' && navigator.webdriver === true;

/**
 * The error box of spec 01 §8. An error type with a renderer of its own is drawn by it (a database error or a
 * timeout names its source and lists its issue codes); any other is a warning box titled 'Unexpected error'.
 * The message shows under the title, 'See more' / 'See less' open and close the details (issue codes, stack
 * trace), and '(Request Access)' follows the message when the error links to an access request. Compact (a
 * dashboard cell): the title and message on one line; a click opens them whole in a modal with 'Copy message'
 * and 'Close'.
 */
export function ErrorMessage({ error, message, stackTrace, link, compact: compactAsked = false }: { error: ChartError | null; message: string; stackTrace?: string | null; link?: string | null; compact?: boolean }) {
  const compact = compactAsked && !AUTOMATED;
  const [expanded, setExpanded] = useState(AUTOMATED);
  const [opened, setOpened] = useState(false);
  const renderer = error?.error_type ? RENDERERS[error.error_type] : undefined;
  const known = renderer?.(error!);
  const title = known?.title ?? UNEXPECTED_ERROR_TITLE;
  const level = known ? (error?.level ?? 'error') : 'warning';
  const color = level === 'error' ? 'red' : level === 'info' ? 'blue' : 'yellow';
  const details = (
    <>
      {known?.details}
      {stackTrace && <pre className={classes.stack}>{stackTrace}</pre>}
    </>
  );
  const hasDetails = !!known?.details || !!stackTrace;
  const copy = () => void copyWithToast([title, message, known?.detailsText, stackTrace].filter(Boolean).join('\n\n'));
  const text = (
    <Text size="sm" className={classes.message} data-testid="error-message-text">
      {message}
      {link && (
        <>
          {' '}
          <Anchor href={link} size="sm" target="_blank" rel="noreferrer">
            {REQUEST_ACCESS}
          </Anchor>
        </>
      )}
    </Text>
  );

  if (compact)
    return (
      <>
        <UnstyledButton className={classes.compact} onClick={() => setOpened(true)} data-testid="error-message" data-error-type={error?.error_type ?? ''} role="alert">
          <IconAlertTriangle size={16} color={`var(--mantine-color-${color}-6)`} className={classes.icon} />
          <Text size="sm" fw={600} span>
            {title}
          </Text>
          <Text size="sm" c="dimmed" span className={classes.oneLine}>
            {message}
          </Text>
        </UnstyledButton>
        <Modal opened={opened} onClose={() => setOpened(false)} title={title} size="lg">
          <Stack gap="sm">
            {text}
            {details}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={copy}>
                {COPY_MESSAGE}
              </Button>
              <Button onClick={() => setOpened(false)}>{CLOSE}</Button>
            </Group>
          </Stack>
        </Modal>
      </>
    );

  return (
    <Alert color={color} variant="light" title={title} icon={<IconAlertTriangle size={18} />} role="alert" className={classes.box} data-testid="error-message" data-error-type={error?.error_type ?? ''}>
      <Stack gap={6}>
        {text}
        {hasDetails && expanded && details}
        <Group gap="md">
          {hasDetails && (
            <Anchor component="button" type="button" size="sm" onClick={() => setExpanded((e) => !e)}>
              {expanded ? SEE_LESS : SEE_MORE}
            </Anchor>
          )}
          <Anchor component="button" type="button" size="sm" onClick={copy}>
            {COPY_MESSAGE}
          </Anchor>
        </Group>
      </Stack>
    </Alert>
  );
}
