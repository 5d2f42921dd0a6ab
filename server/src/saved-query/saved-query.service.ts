import type { ListQuery, ListResult, SavedQueryCreate, SavedQueryUpdate, SavedQueryView } from '@meridian/contracts';
import { isAdmin } from '@meridian/contracts/rules/permissions';
import type { DatabaseService } from '../database/database.service';
import { readScheduleInfo, validateScheduleForm } from '@meridian/contracts/rules/schedule';
import { Invalid, NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { SavedQueryRepository } from './saved-query.repository';

/** extra_json must be a JSON object; a `schedule_info` in it must be a valid schedule (Superset's SCHEDULED_QUERIES). */
export function checkExtraJson(extraJson: string | null | undefined): void {
  if (extraJson === null || extraJson === undefined || extraJson === '') return;
  let extra: unknown;
  try {
    extra = JSON.parse(extraJson);
  } catch {
    throw new Invalid({ extra_json: ['Not valid JSON.'] });
  }
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new Invalid({ extra_json: ['Must be a JSON object.'] });
  if (!('schedule_info' in extra)) return;
  const info = readScheduleInfo(extraJson);
  if (!info) throw new Invalid({ extra_json: ['schedule_info must be an object.'] });
  const errors = validateScheduleForm({
    output_table: String(info.output_table ?? ''),
    start_date: String(info.start_date ?? ''),
    end_date: info.end_date ? String(info.end_date) : null,
    interval: 'custom',
    crontab: String(info.schedule_interval ?? ''),
  });
  const messages = Object.entries(errors).map(([field, message]) => `schedule_info.${field === 'crontab' ? 'schedule_interval' : field}: ${message}`);
  if (messages.length) throw new Invalid({ extra_json: messages });
}

/** Saved queries: each user sees and edits their own (admins everyone's); others are 404. */
export class SavedQueryService {
  constructor(private readonly deps: { savedQueries: SavedQueryRepository; security: SecurityService; databases: DatabaseService }) {}

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<SavedQueryView>> {
    this.deps.security.require(actor, 'can_read', 'SavedQuery');
    const { count, rows } = await this.deps.savedQueries.list(query, isAdmin(actor) ? null : actor.userId, actor.userId);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  /** `distinct/{schema,catalog}` among the saved queries the caller sees. */
  distinct(actor: Actor | null, column: 'schema' | 'catalog', page: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', 'SavedQuery');
    return this.deps.savedQueries.distinct(column, isAdmin(actor) ? null : actor.userId, page);
  }

  private async owned(actor: Actor, id: number) {
    const found = await this.deps.savedQueries.get(id);
    if (!found || (found.user_id !== actor.userId && !isAdmin(actor))) throw new NotFound();
    return found;
  }

  async get(actor: Actor | null, id: number): Promise<SavedQueryView> {
    this.deps.security.require(actor, 'can_read', 'SavedQuery');
    const { user_id: _owner, ...view } = await this.owned(actor, id);
    return view;
  }

  private async checkDatabase(actor: Actor, dbId: number): Promise<void> {
    try {
      await this.deps.databases.getAccessible(actor, dbId);
    } catch {
      throw new Unprocessable({ db_id: ['Database not found.'] });
    }
  }

  async create(actor: Actor | null, input: SavedQueryCreate): Promise<SavedQueryView> {
    this.deps.security.require(actor, 'can_write', 'SavedQuery');
    await this.checkDatabase(actor, input.db_id);
    checkExtraJson(input.extra_json);
    const id = await this.deps.savedQueries.create({ ...input, user_id: actor.userId, created_by_fk: actor.userId, changed_by_fk: actor.userId });
    return this.get(actor, id);
  }

  async update(actor: Actor | null, id: number, input: SavedQueryUpdate): Promise<SavedQueryView> {
    this.deps.security.require(actor, 'can_write', 'SavedQuery');
    await this.owned(actor, id);
    if (input.db_id !== undefined) await this.checkDatabase(actor, input.db_id);
    checkExtraJson(input.extra_json);
    await this.deps.savedQueries.update(id, { ...input, changed_by_fk: actor.userId });
    return this.get(actor, id);
  }

  /** Deletes one or many; any id that is missing or not the actor's makes it a 404 and nothing is deleted. */
  async delete(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'SavedQuery');
    const unique = [...new Set(ids)];
    const found = await this.deps.savedQueries.owners(unique);
    const allowed = found.filter((r) => r.user_id === actor.userId || isAdmin(actor));
    if (allowed.length !== unique.length || unique.length === 0) throw new NotFound();
    await this.deps.savedQueries.delete(unique);
    return unique.length;
  }
}
