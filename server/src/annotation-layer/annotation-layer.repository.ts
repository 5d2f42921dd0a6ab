import type { AnnotationLayerView, AnnotationView, ListQuery } from '@meridian/contracts';
import type { Insertable, Updateable } from 'kysely';
import { runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { DB } from '../db/schema';
import { auditPerson } from '../database/humanize';
import { humanizedDelta, pythonIsoformat } from '@meridian/contracts/rules/dates';

const LAYER_COLUMNS = {
  id: 'annotation_layer.id',
  name: 'annotation_layer.name',
  descr: 'annotation_layer.descr',
  created_on: 'annotation_layer.created_on',
  changed_on: 'annotation_layer.changed_on',
  changed_on_delta_humanized: 'annotation_layer.changed_on',
  created_by: 'annotation_layer.created_by_fk',
  changed_by: 'annotation_layer.changed_by_fk',
  'created_by.first_name': 'cb.first_name',
  'changed_by.first_name': 'mb.first_name',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const ANNOTATION_LAYER_ORDER_COLUMNS = Object.keys(LAYER_COLUMNS);

const ANNOTATION_COLUMNS = {
  id: 'annotation.id',
  short_descr: 'annotation.short_descr',
  long_descr: 'annotation.long_descr',
  start_dttm: 'annotation.start_dttm',
  end_dttm: 'annotation.end_dttm',
  changed_on: 'annotation.changed_on',
  changed_on_delta_humanized: 'annotation.changed_on',
  created_by: 'annotation.created_by_fk',
  changed_by: 'annotation.changed_by_fk',
};
/** The columns a list call may order by (`order_column`), as its `order_columns`. */
export const ANNOTATION_ORDER_COLUMNS = Object.keys(ANNOTATION_COLUMNS);

const isoOrNull = (value: Date | string | null) => (value ? pythonIsoformat(value) : null);

/** An annotation as chart data reads it: datetimes as epoch milliseconds (Superset's chart time format). */
export interface AnnotationRecord {
  start_dttm: number | null;
  end_dttm: number | null;
  short_descr: string | null;
  long_descr: string | null;
  json_metadata: string | null;
}

/** Annotation layers (`annotation_layer`) and their annotations (`annotation`); rows in, contract views out. */
export class AnnotationLayerRepository {
  constructor(private readonly db: MetadataDb) {}

  private layers() {
    return this.db
      .selectFrom('annotation_layer')
      .leftJoin('ab_user as cb', 'cb.id', 'annotation_layer.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'annotation_layer.changed_by_fk')
      .selectAll('annotation_layer')
      .select(['cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  private layerView(r: Awaited<ReturnType<ReturnType<AnnotationLayerRepository['layers']>['executeTakeFirstOrThrow']>>): AnnotationLayerView {
    return {
      id: r.id,
      name: r.name,
      descr: r.descr,
      created_on: pythonIsoformat(r.created_on),
      changed_on: pythonIsoformat(r.changed_on),
      changed_on_delta_humanized: humanizedDelta(r.changed_on),
      created_by: auditPerson(r.created_by_fk, r.cb_first, r.cb_last),
      changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
    };
  }

  async listLayers(query: ListQuery): Promise<{ count: number; rows: AnnotationLayerView[] }> {
    const { count, rows } = await runListQuery(this.layers(), query, { columns: LAYER_COLUMNS, idColumn: 'annotation_layer.id', defaultOrder: ['name', 'asc'] });
    return { count, rows: rows.map((r) => this.layerView(r)) };
  }

  async getLayer(id: number): Promise<AnnotationLayerView | undefined> {
    const row = await this.layers().where('annotation_layer.id', '=', id).executeTakeFirst();
    return row ? this.layerView(row) : undefined;
  }

  /** The id of the layer with this name, if any (other than `exceptId`). */
  async layerIdByName(name: string, exceptId?: number): Promise<number | undefined> {
    let q = this.db.selectFrom('annotation_layer').select('id').where('name', '=', name);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst())?.id;
  }

  /** Which of the ids exist. */
  async existingLayerIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('annotation_layer').select('id').where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  async createLayer(values: Insertable<DB['annotation_layer']>): Promise<number> {
    const { id } = await this.db.insertInto('annotation_layer').values(values).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async updateLayer(id: number, patch: Updateable<DB['annotation_layer']>): Promise<void> {
    await this.db.updateTable('annotation_layer').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
  }

  /** Deletes layers in one statement; their annotations go with them (ON DELETE CASCADE). */
  async deleteLayers(ids: number[]): Promise<void> {
    await this.db.deleteFrom('annotation_layer').where('id', 'in', ids).execute();
  }

  private annotations() {
    return this.db
      .selectFrom('annotation')
      .innerJoin('annotation_layer', 'annotation_layer.id', 'annotation.layer_id')
      .leftJoin('ab_user as cb', 'cb.id', 'annotation.created_by_fk')
      .leftJoin('ab_user as mb', 'mb.id', 'annotation.changed_by_fk')
      .selectAll('annotation')
      .select(['annotation_layer.name as layer_name', 'cb.first_name as cb_first', 'cb.last_name as cb_last', 'mb.first_name as mb_first', 'mb.last_name as mb_last']);
  }

  private annotationView(r: Awaited<ReturnType<ReturnType<AnnotationLayerRepository['annotations']>['executeTakeFirstOrThrow']>>): AnnotationView {
    return {
      id: r.id,
      layer: { id: r.layer_id, name: r.layer_name },
      short_descr: r.short_descr,
      long_descr: r.long_descr,
      start_dttm: isoOrNull(r.start_dttm),
      end_dttm: isoOrNull(r.end_dttm),
      json_metadata: r.json_metadata,
      changed_on_delta_humanized: humanizedDelta(r.changed_on),
      created_by: auditPerson(r.created_by_fk, r.cb_first, r.cb_last),
      changed_by: auditPerson(r.changed_by_fk, r.mb_first, r.mb_last),
    };
  }

  async listAnnotations(layerId: number, query: ListQuery): Promise<{ count: number; rows: AnnotationView[] }> {
    const base = this.annotations().where('annotation.layer_id', '=', layerId);
    const { count, rows } = await runListQuery(base, query, { columns: ANNOTATION_COLUMNS, idColumn: 'annotation.id', defaultOrder: ['start_dttm', 'asc'] });
    return { count, rows: rows.map((r) => this.annotationView(r)) };
  }

  /** One annotation of one layer (an annotation of another layer is absent). */
  async getAnnotation(layerId: number, id: number): Promise<AnnotationView | undefined> {
    const row = await this.annotations().where('annotation.layer_id', '=', layerId).where('annotation.id', '=', id).executeTakeFirst();
    return row ? this.annotationView(row) : undefined;
  }

  /** The id of the layer's annotation with this short description, if any (other than `exceptId`). */
  async annotationIdByShortDescr(layerId: number, shortDescr: string, exceptId?: number): Promise<number | undefined> {
    let q = this.db.selectFrom('annotation').select('id').where('layer_id', '=', layerId).where('short_descr', '=', shortDescr);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst())?.id;
  }

  /** Which of the ids are annotations of the layer. */
  async existingAnnotationIds(layerId: number, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('annotation').select('id').where('layer_id', '=', layerId).where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  async createAnnotation(values: Insertable<DB['annotation']>): Promise<number> {
    const { id } = await this.db.insertInto('annotation').values(values).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async updateAnnotation(id: number, patch: Updateable<DB['annotation']>): Promise<void> {
    await this.db.updateTable('annotation').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
  }

  async deleteAnnotations(layerId: number, ids: number[]): Promise<void> {
    await this.db.deleteFrom('annotation').where('layer_id', '=', layerId).where('id', 'in', ids).execute();
  }

  /** Every annotation of the given layers, grouped by layer id, in time order (chart data's NATIVE layers). */
  async annotationsOfLayers(layerIds: number[]): Promise<Map<number, AnnotationRecord[]>> {
    const byLayer = new Map<number, AnnotationRecord[]>(layerIds.map((id) => [id, []]));
    if (!layerIds.length) return byLayer;
    const rows = await this.db
      .selectFrom('annotation')
      .select(['layer_id', 'start_dttm', 'end_dttm', 'short_descr', 'long_descr', 'json_metadata'])
      .where('layer_id', 'in', layerIds)
      .orderBy('start_dttm', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const ms = (value: Date | string | null) => (value ? new Date(value).getTime() : null);
    for (const r of rows) {
      byLayer.get(r.layer_id)?.push({ start_dttm: ms(r.start_dttm), end_dttm: ms(r.end_dttm), short_descr: r.short_descr, long_descr: r.long_descr, json_metadata: r.json_metadata });
    }
    return byLayer;
  }
}
