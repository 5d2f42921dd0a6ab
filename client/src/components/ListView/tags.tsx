import { Badge, Group } from '@mantine/core';
import type { FilterOperator } from '@meridian/contracts/schemas/list-query';
import { TAG_TYPES, type TagRef } from '@meridian/contracts/schemas/tag';
import type { ColumnDef } from '@tanstack/react-table';
import { api } from '../../api';
import { useBootstrap } from '../../auth/session';
import type { ListViewFilter } from './ListView';

export type { TagRef };

/** Whether tags are on (Superset's TAGGING_SYSTEM flag): the lists then show and filter by them. */
export function useTaggingEnabled(): boolean {
  return !!useBootstrap().featureFlags.TAGGING_SYSTEM;
}

/** The "Tag" select of a list: the custom tags, filtering by tag id (`chart_tag_id`, `dashboard_tag_id`, `saved_query_tag_id`). */
export const tagFilter = (operator: FilterOperator): ListViewFilter => ({
  col: 'tags',
  label: 'Tag',
  input: 'select',
  operator,
  loadOptions: async () => {
    const answer = await api<{ result: TagRef[] }>('/api/v1/tag/', { query: { q: { filters: [{ col: 'type', opr: 'eq', value: TAG_TYPES.custom }], order_column: 'name', order_direction: 'asc', page_size: 1000 } } });
    return answer.result.map((t) => ({ value: String(t.id), label: t.name }));
  },
  parse: Number,
});

/** The "Tags" column: a row's custom tags as badges. */
export function tagsColumn<T extends { tags?: TagRef[] | unknown[] }>(): ColumnDef<T> {
  return {
    id: 'tags',
    header: 'Tags',
    enableSorting: false,
    cell: ({ row }) => {
      const tags = ((row.original.tags ?? []) as TagRef[]).filter((t) => t.type === TAG_TYPES.custom);
      return tags.length ? (
        <Group gap={4} wrap="wrap" maw={220}>
          {tags.map((t) => (
            <Badge key={t.id} size="sm" radius="sm" variant="outline" color="gray" tt="none" fw={500}>
              {t.name}
            </Badge>
          ))}
        </Group>
      ) : null;
    },
  };
}
