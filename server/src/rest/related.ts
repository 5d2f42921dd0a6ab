import type { FastifyInstance } from 'fastify';
import type { ListQuery } from '@meridian/contracts';
import { z } from 'zod';
import type { Actor } from '../security/actor';
import type { Services } from '../services';
import { RELATED_USER_COLUMNS } from '../users/user.service';
import { columnParams, pageOf, route } from './rest';

type Page = ReturnType<typeof pageOf>;
type Choices = Promise<{ count: number; result: Array<{ value: unknown; text: string; extra?: unknown }> }>;
type UserColumn = (typeof RELATED_USER_COLUMNS)[number] | 'user';

const ListParams = z.object({ q: z.unknown().optional() });

/**
 * Related choices from a service's own list (so its access rules hold): the rows whose `column` contains the search
 * text, ordered by it, each as `{value: id, text: column}`.
 */
export async function relatedFromList<K extends string>(
  list: (query: ListQuery) => Promise<{ count: number; result: ReadonlyArray<{ id: number } & { [key in K]: string | null }> }>,
  column: K,
  page: Page,
): Choices {
  const answer = await list({
    filters: page.filter ? [{ col: column, opr: 'ct', value: page.filter }] : [],
    order_column: column,
    order_direction: 'asc',
    page: page.page,
    page_size: page.pageSize,
  } as ListQuery);
  return { count: answer.count, result: answer.result.map((row) => ({ value: row.id, text: row[column] ?? '' })) };
}

/** Related choices as Superset's `_get_result_from_rows` gives them: every item carries `extra` (`{}` when the column has none). */
export async function withExtra(choices: Choices): Choices {
  const answer = await choices;
  return { ...answer, result: answer.result.map((item) => ({ ...item, extra: item.extra ?? {} })) };
}

/** The databases the caller may read, as related choices (`related/database`). */
export const relatedDatabases = (services: Services, actor: Actor | null, page: Page): Choices =>
  relatedFromList((q) => services.databases.list(actor, q), 'database_name', page);

/**
 * `GET /api/v1/<resource>/related/{column}` as Superset's `allowed_rel_fields`: people through the user
 * search (read permission on the resource's view), other columns by the resource's own choices.
 */
export function registerRelated(
  app: FastifyInstance,
  services: Services,
  spec: { resource: string; view: string; tags: string[]; users: readonly UserColumn[]; others?: Record<string, (actor: Actor | null, page: Page) => Choices> },
): void {
  const columns = [...spec.users, ...Object.keys(spec.others ?? {})] as [string, ...string[]];
  route(
    app,
    {
      method: 'GET',
      url: `/api/v1/${spec.resource}/related/:column`,
      permission: ['can_read', spec.view],
      summary: `Choices for a related field (${columns.join(', ')})`,
      tags: spec.tags,
      params: columnParams(columns),
      query: ListParams,
      rison: true,
    },
    ({ actor, params, query }) => {
      const page = pageOf(query.q);
      const other = spec.others?.[params.column];
      return withExtra(other ? other(actor, page) : services.users.related(actor, spec.view, page));
    },
  );
}
