import type { CssTemplateCreate, CssTemplateUpdate, ListQuery, ListResult } from '@meridian/contracts';
import { runListQuery } from '../common/list-query';
import { auditPerson } from '../database/humanize';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';
import type { MetadataDb } from '../db/database';
import { NotFound } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';

const COLUMNS = {
  id: 'css_templates.id',
  template_name: 'css_templates.template_name',
  css: 'css_templates.css',
  created_on: 'css_templates.created_on',
  changed_on: 'css_templates.changed_on',
  changed_on_delta_humanized: 'css_templates.changed_on',
  created_by: 'css_templates.created_by_fk',
  changed_by: 'css_templates.changed_by_fk',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const CSS_TEMPLATE_ORDER_COLUMNS = Object.keys(COLUMNS);


/** CSS templates for the dashboard CSS editor (Superset's CssTemplateRestApi): `can_read` / `can_write` on `CssTemplate`. */
export class CssTemplateService {
  constructor(private readonly deps: { db: MetadataDb; security: SecurityService }) {}

  private base() {
    return this.deps.db
      .selectFrom('css_templates')
      .leftJoin('ab_user as cb', 'cb.id', 'css_templates.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'css_templates.changed_by_fk')
      .selectAll('css_templates')
      .select(['cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  private view(r: Awaited<ReturnType<ReturnType<CssTemplateService['base']>['executeTakeFirstOrThrow']>>) {
    return {
      id: r.id,
      uuid: r.uuid,
      template_name: r.template_name,
      css: r.css,
      created_on: pythonIsoformat(r.created_on),
      changed_on: pythonIsoformat(r.changed_on),
      changed_on_delta_humanized: humanizedDelta(r.changed_on),
      created_by: auditPerson(r.created_by_fk, r.cb_first, r.cb_last),
      changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
    };
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<ReturnType<CssTemplateService['view']>>> {
    this.deps.security.require(actor, 'can_read', 'CssTemplate');
    const { count, rows } = await runListQuery(this.base(), query, { columns: COLUMNS, idColumn: 'css_templates.id', defaultOrder: ['template_name', 'asc'] });
    const views = rows.map((r) => this.view(r as never));
    return { count, ids: views.map((v) => v.id), result: views };
  }

  async get(actor: Actor | null, id: number) {
    this.deps.security.require(actor, 'can_read', 'CssTemplate');
    const row = await this.base().where('css_templates.id', '=', id).executeTakeFirst();
    if (!row) throw new NotFound();
    return this.view(row);
  }

  async create(actor: Actor | null, input: CssTemplateCreate) {
    this.deps.security.require(actor, 'can_write', 'CssTemplate');
    const { id } = await this.deps.db
      .insertInto('css_templates')
      .values({ template_name: input.template_name, css: input.css ?? '', created_by_fk: actor.userId, changed_by_fk: actor.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return this.get(actor, id);
  }

  async update(actor: Actor | null, id: number, input: CssTemplateUpdate) {
    this.deps.security.require(actor, 'can_write', 'CssTemplate');
    await this.get(actor, id);
    await this.deps.db
      .updateTable('css_templates')
      .set({ ...(input.template_name !== undefined ? { template_name: input.template_name } : {}), ...(input.css !== undefined ? { css: input.css ?? '' } : {}), changed_by_fk: actor.userId, changed_on: new Date() })
      .where('id', '=', id)
      .execute();
    return this.get(actor, id);
  }

  /** Deletes the templates; all of them must exist (404 otherwise, nothing deleted). */
  async delete(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'CssTemplate');
    const found = await this.deps.db.selectFrom('css_templates').select('id').where('id', 'in', ids).execute();
    if (found.length !== new Set(ids).size) throw new NotFound();
    await this.deps.db.deleteFrom('css_templates').where('id', 'in', ids).execute();
    return found.length;
  }
}
