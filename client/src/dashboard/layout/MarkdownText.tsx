import { Markdown } from '../../components/Markdown';

/** A dashboard markdown component in view mode (the empty one says how to fill it). */
export function MarkdownText({ source }: { source: string }) {
  if (!source.trim()) return <p style={{ color: 'var(--mantine-color-dimmed)', margin: 0 }}>Click Edit dashboard to write markdown here.</p>;
  return <Markdown source={source} />;
}
