import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Actor } from '../security/actor';
import type { Services } from '../services';
import { RELATED_USER_COLUMNS } from '../users/user.service';
import { pageOf, route } from './rest';

type Page = ReturnType<typeof pageOf>;
type Choices = Promise<{ count: number; result: Array<{ value: unknown; text: string; extra?: unknown }> }>;
type UserColumn = (typeof RELATED_USER_COLUMNS)[number] | 'user';

const ListParams = z.object({ q: z.unknown().optional() });

/** The databases the caller may read, as related choices (`related/database`). */
export async function relatedDatabases(services: Services, actor: Actor | null, page: Page): Choices {
  const list = await services.databases.list(actor, {
    filters: page.filter ? [{ col: 'database_name', opr: 'ct', value: page.filter }] : [],
    order_column: 'database_name',
    order_direction: 'asc',
    page: page.page,
    page_size: page.pageSize,
  } as never);
  return { count: list.count, result: list.result.map((d) => ({ value: d.id, text: d.database_name })) };
}

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
      params: z.object({ column: z.enum(columns) }),
      query: ListParams,
      rison: true,
    },
    ({ actor, params, query }) => {
      const page = pageOf(query.q);
      const other = spec.others?.[params.column];
      return other ? other(actor, page) : services.users.related(actor, spec.view, page);
    },
  );
}
