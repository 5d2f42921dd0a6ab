import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../api';

export interface Choice {
  value: string;
  label: string;
}

/**
 * A multiple choice of a resource's related field (`GET /api/v1/{resource}/related/{column}`: owners, roles), searched
 * on the server as the user types, as Superset's owner select is. The chosen values keep their labels while a search
 * lists other people.
 */
export function RelatedMultiSelect({ resource, column, known, value, onChange, label, description, error }: { resource: 'chart' | 'dashboard'; column: 'owners' | 'roles'; known: Choice[]; value: string[]; onChange: (value: string[]) => void; label: string; description?: string; error?: string }) {
  const [search, setSearch] = useState('');
  const [filter] = useDebouncedValue(search.trim(), 250);
  const related = useQuery({
    queryKey: ['related', resource, column, filter],
    queryFn: () => api<{ result: Array<{ value: number; text: string }> }>(`/api/v1/${resource}/related/${column}`, { query: { q: { filter, page_size: 100 } } }),
    placeholderData: keepPreviousData,
  });
  // Labels seen so far, so that a chosen value found by an earlier search is still named.
  const [seen, setSeen] = useState(() => new Map(known.map((c) => [c.value, c.label])));
  const data = useMemo(() => {
    const found = (related.data?.result ?? []).map((r) => ({ value: String(r.value), label: r.text }));
    const labels = new Map(seen);
    for (const c of known) labels.set(c.value, c.label);
    for (const c of found) labels.set(c.value, c.label);
    const out = new Map<string, string>();
    for (const v of value) out.set(v, labels.get(v) ?? v);
    for (const c of found) out.set(c.value, c.label);
    return [...out].map(([v, l]) => ({ value: v, label: l }));
  }, [related.data, known, seen, value]);
  return (
    <MultiSelect
      label={label}
      description={description}
      error={error}
      data={data}
      value={value}
      onChange={(next) => {
        setSeen((m) => new Map([...m, ...data.map((c) => [c.value, c.label] as const)]));
        onChange(next);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={related.isFetching ? 'Loading...' : 'No results'}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** A person of a record (owners) as a choice, named as the related list names people. */
export const personChoice = (p: { id: number; first_name?: string; last_name?: string }): Choice => ({ value: String(p.id), label: `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim() || `User ${p.id}` });
