import { SignJWT, jwtVerify } from 'jose';
import { isAdmin, isOwner } from '@meridian/contracts/rules/permissions';
import type { MetadataDb } from '../db/database';
import type { DashboardService } from '../dashboard/dashboard.service';
import { datasetPermName } from '../dataset/dataset.repository';
import { Forbidden, Invalid, NotFound } from '../errors/domain-errors';
import { auditPerson } from '../database/humanize';
import type { Actor, GuestScope } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { pythonIsoformat } from '@meridian/contracts/rules/dates';

/** Superset's GUEST_TOKEN_JWT_EXP_SECONDS default. */
export const GUEST_TOKEN_SECONDS = 300;
/** Superset's GUEST_TOKEN_HEADER_NAME. */
export const GUEST_TOKEN_HEADER = 'x-guesttoken';
/** What a guest may do: read its dashboards, their charts and the charts' data. */
const GUEST_ROLE: Array<[string, string]> = [
  ['can_read', 'Dashboard'],
  ['can_read', 'Chart'],
  ['can_read', 'Dataset'],
];

export interface GuestTokenRequest {
  user?: { username?: string; first_name?: string; last_name?: string };
  resources: Array<{ type: string; id: string }>;
  rls?: Array<{ dataset?: number; clause: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Embedded dashboards (Superset's EmbeddedDashboardRestApi, `/dashboard/{id}/embedded`) and guest tokens
 * (`POST /api/v1/security/guest_token/`). A guest token names embedded dashboards by uuid; the guest it
 * stands for reads only those dashboards, their charts, and chart data for those charts.
 */
export class EmbeddedService {
  private readonly key: Uint8Array;

  constructor(
    private readonly deps: { db: MetadataDb; security: SecurityService; dashboards: DashboardService; secretKey: string; guestTokenSeconds?: number },
  ) {
    this.key = new TextEncoder().encode(`guest:${deps.secretKey}`);
  }

  private view(row: { uuid: string; dashboard_id: number; allowed_domains: string; changed_on: Date | string; changed_by_fk: number | null; mb_first: string | null; mb_last: string | null }) {
    return {
      uuid: row.uuid,
      dashboard_id: String(row.dashboard_id),
      allowed_domains: JSON.parse(row.allowed_domains) as string[],
      changed_on: pythonIsoformat(row.changed_on),
      changed_by: auditPerson(row.changed_by_fk, row.mb_first, row.mb_last),
    };
  }

  /** Embeddings with the names of who last changed them (EmbeddedDashboardResponseSchema's `changed_by`). */
  private embeddings() {
    return this.deps.db
      .selectFrom('embedded_dashboards')
      .leftJoin('ab_user as mb', 'mb.id', 'embedded_dashboards.changed_by_fk')
      .selectAll('embedded_dashboards')
      .select(['mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  /** The dashboard an owner (or admin) may set embedding on. */
  private async editable(actor: Actor | null, idOrSlug: string) {
    this.deps.security.require(actor, 'can_write', 'Dashboard');
    const dashboard = await this.deps.dashboards.record(actor, idOrSlug);
    if (!isAdmin(actor) && !isOwner(actor, dashboard)) throw new Forbidden('You do not have permission to edit this dashboard');
    return dashboard;
  }

  async forDashboard(actor: Actor | null, idOrSlug: string) {
    const dashboard = await this.deps.dashboards.record(actor, idOrSlug);
    const row = await this.embeddings().where('embedded_dashboards.dashboard_id', '=', dashboard.id).executeTakeFirst();
    if (!row) throw new NotFound();
    return this.view(row);
  }

  /** POST and PUT `/{id}/embedded`: creates the embedding or replaces its allowed domains. */
  async upsert(actor: Actor | null, idOrSlug: string, allowedDomains: string[]) {
    const dashboard = await this.editable(actor, idOrSlug);
    const domains = JSON.stringify(allowedDomains.map((d) => d.trim()).filter(Boolean));
    await this.deps.db
      .insertInto('embedded_dashboards')
      .values({ dashboard_id: dashboard.id, allowed_domains: domains, created_by_fk: actor!.userId, changed_by_fk: actor!.userId })
      .onConflict((oc) => oc.column('dashboard_id').doUpdateSet({ allowed_domains: domains, changed_by_fk: actor!.userId, changed_on: new Date() }))
      .execute();
    return this.forDashboard(actor, String(dashboard.id));
  }

  async remove(actor: Actor | null, idOrSlug: string): Promise<void> {
    const dashboard = await this.editable(actor, idOrSlug);
    await this.deps.db.deleteFrom('embedded_dashboards').where('dashboard_id', '=', dashboard.id).execute();
  }

  /** `GET /api/v1/embedded_dashboard/{uuid}`: for the embedded page, signed in or holding a guest token for it. */
  async byUuid(actor: Actor | null, uuid: string) {
    if (!actor) this.deps.security.require(actor, 'can_read', 'Dashboard');
    const row = UUID.test(uuid) ? await this.embeddings().where('embedded_dashboards.uuid', '=', uuid).executeTakeFirst() : undefined;
    if (!row) throw new NotFound();
    if (actor!.guest && !actor!.guest.dashboardIds.includes(row.dashboard_id)) throw new NotFound();
    return this.view(row);
  }

  /** The allowed domains of an embedding (null when there is no such embedding). */
  async allowedDomains(uuid: string): Promise<string[] | null> {
    const row = UUID.test(uuid) ? await this.deps.db.selectFrom('embedded_dashboards').select('allowed_domains').where('uuid', '=', uuid).executeTakeFirst() : undefined;
    return row ? (JSON.parse(row.allowed_domains) as string[]) : null;
  }

  /** `POST /api/v1/security/guest_token/`: a short-lived token for embedded dashboards (can_grant_guest_token). */
  async guestToken(actor: Actor | null, request: GuestTokenRequest): Promise<{ token: string }> {
    this.deps.security.require(actor, 'can_grant_guest_token', 'SecurityRestApi');
    const problems: string[] = [];
    for (const r of request.resources) if (r.type !== 'dashboard') problems.push(`Unsupported resource type: ${r.type}`);
    if (!request.resources.length) problems.push('At least one resource is required');
    if (problems.length) throw new Invalid({ resources: problems });
    // Superset's validate_guest_token_resources raises EmbeddedDashboardNotFoundError, answered as its plain message.
    for (const r of request.resources) if (!(await this.allowedDomains(String(r.id)))) throw new Invalid('EmbeddedDashboard not found.');
    const token = await new SignJWT({ type: 'guest', user: request.user ?? {}, resources: request.resources, rls_rules: request.rls ?? [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(`${this.deps.guestTokenSeconds ?? GUEST_TOKEN_SECONDS}s`)
      .sign(this.key);
    return { token };
  }

  /** The guest a valid token stands for, with what it may read; null for a forged or expired token. */
  async guestActor(token: string): Promise<Actor | null> {
    let payload: Record<string, any>;
    try {
      payload = (await jwtVerify(token, this.key, { algorithms: ['HS256'] })).payload as Record<string, any>;
    } catch {
      return null;
    }
    if (payload.type !== 'guest' || !Array.isArray(payload.resources)) return null;
    const uuids = payload.resources.filter((r: any) => r?.type === 'dashboard' && UUID.test(String(r.id))).map((r: any) => String(r.id));
    const dashboardIds = uuids.length ? (await this.deps.db.selectFrom('embedded_dashboards').select('dashboard_id').where('uuid', 'in', uuids).execute()).map((r) => r.dashboard_id) : [];
    const charts = dashboardIds.length
      ? await this.deps.db
          .selectFrom('dashboard_slices')
          .innerJoin('slices', 'slices.id', 'dashboard_slices.slice_id')
          .leftJoin('tables', 'tables.id', 'slices.datasource_id')
          .leftJoin('dbs', 'dbs.id', 'tables.database_id')
          .select(['slices.id as chart_id', 'slices.datasource_id', 'tables.table_name', 'dbs.database_name'])
          .where('dashboard_slices.dashboard_id', 'in', dashboardIds)
          .execute()
      : [];
    const scope: GuestScope = {
      dashboardIds,
      chartIds: [...new Set(charts.map((c) => c.chart_id))],
      datasetIds: [...new Set(charts.map((c) => c.datasource_id).filter((id): id is number => id !== null))],
      datasourcePerms: [...new Set(charts.filter((c) => c.table_name && c.database_name && c.datasource_id).map((c) => datasetPermName(c.database_name!, c.table_name!, c.datasource_id!)))],
      rls: (Array.isArray(payload.rls_rules) ? payload.rls_rules : [])
        .filter((r: any) => typeof r?.clause === 'string' && r.clause.trim())
        .map((r: any) => ({ dataset: typeof r.dataset === 'number' ? r.dataset : undefined, clause: String(r.clause) })),
    };
    const user = (payload.user ?? {}) as { username?: string; first_name?: string; last_name?: string };
    // The charts' datasets as datasource_access grants: every dataset check then sees just these.
    const roles = { Guest: [...GUEST_ROLE, ...scope.datasourcePerms.map((name) => ['datasource_access', name] as [string, string])] };
    return { userId: 0, username: user.username || 'guest', firstName: user.first_name ?? '', lastName: user.last_name ?? '', email: '', roles, guest: scope };
  }
}
