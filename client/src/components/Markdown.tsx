import { Typography } from '@mantine/core';
import ReactMarkdown, { type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** Links that may be followed: web and mail addresses, and the app's own paths; anything else (javascript:, data:) is dropped. */
const safeUrl: Options['urlTransform'] = (url) => (/^(https?:|mailto:|\/|#)/i.test(url) ? url : '');

/**
 * Markdown as users write it in dashboards and the markdown chart, rendered without raw HTML (react-markdown
 * never injects HTML) and with unsafe link schemes removed.
 */
export function Markdown({ source }: { source: string }) {
  return (
    <Typography>
      <ReactMarkdown remarkPlugins={[remarkGfm]} urlTransform={safeUrl} components={{ a: ({ node: _n, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" /> }}>
        {source}
      </ReactMarkdown>
    </Typography>
  );
}
