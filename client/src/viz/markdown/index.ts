import { svg } from '../shared/timeseries/plugin';
import type { ChartPlugin, QueryContext } from '../types';

export interface MarkdownProps {
  code: string;
}

const markdown: ChartPlugin<MarkdownProps> = {
  key: 'markdown',
  name: 'Markdown',
  category: 'Text',
  description: 'Formatted text written in Markdown: notes, headings and links beside other charts.',
  tags: ['Text', 'Description'],
  thumbnail: svg('<path d="M8 10 H40 M8 18 H56 M8 26 H50 M8 32 H30" stroke="#1FA8C9" stroke-width="3"/>'),
  behaviors: [],
  needsQuery: false,
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
