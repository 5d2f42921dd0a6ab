import type { ChartPlugin, QueryContext } from '../types';
import meta from './meta';

export interface MarkdownProps {
  code: string;
}

const markdown: ChartPlugin<MarkdownProps> = {
  ...meta,
  controlPanel: {
    sections: [{ label: 'Code', expanded: true, tab: 'data', controlSetRows: [[{ name: 'code', type: 'TextAreaControl', label: 'Markdown', language: 'markdown', default: '', renderTrigger: true }]] }],
  },
  defaultFormData: { code: '# Title\n\nWrite **markdown** here.' },
  // Drawn without data: the query is never sent (needsQuery false), kept only to satisfy the contract.
  buildQuery: (fd) => ({ datasource: { id: 0, type: 'table' }, queries: [], form_data: fd, result_format: 'json', result_type: 'full', force: false }) as QueryContext,
  transformProps: ({ formData }) => ({ code: String(formData.code ?? '') }),
  loadChart: () => import('./MarkdownChart'),
};

export default markdown;
