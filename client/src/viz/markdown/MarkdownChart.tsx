import { useEffect } from 'react';
import { Markdown } from '../../components/Markdown';
import type { ChartProps } from '../types';
import type { MarkdownProps } from './index';

export default function MarkdownChart({ transformed, width, height, onRendered }: ChartProps<MarkdownProps>) {
  useEffect(() => {
    onRendered?.();
  }, [onRendered]);
  return (
    <div style={{ width, height, overflow: 'auto', padding: 8 }}>
      <Markdown source={transformed.code} />
    </div>
  );
}
