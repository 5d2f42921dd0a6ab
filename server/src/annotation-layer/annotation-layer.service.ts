import {
  annotationDateErrors,
  parseAnnotationDttm,
  type AnnotationCreate,
  type AnnotationLayerCreate,
  type AnnotationLayerUpdate,
  type AnnotationLayerView,
  type AnnotationUpdate,
  type AnnotationView,
  type ListQuery,
  type ListResult,
} from '@meridian/contracts';
import { NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { isUniqueViolation } from '../db/database';
import type { AnnotationLayerRepository, AnnotationRecord } from './annotation-layer.repository';

/** Superset's messages for its annotation commands. */
export const LAYER_NAME_UNIQUE = 'Name must be unique';
export const SHORT_DESCR_UNIQUE = 'Short description must be unique for this layer';

/** An annotation layer as get, create and update answer it (Superset's `AnnotationLayerRestApi.get`). */
export interface AnnotationLayerItem {
  id: number;
  name: string;
  descr: string | null;
}

/** An annotation as get answers it (Superset's `AnnotationRestApi.get`). */
export type AnnotationItem = Pick<AnnotationView, 'id' | 'layer' | 'short_descr' | 'long_descr' | 'start_dttm' | 'end_dttm' | 'json_metadata'>;

const toDate = (text: string) => parseAnnotationDttm(text)!;

/**
 * Annotation layers and their annotations (Superset's AnnotationLayerRestApi and AnnotationRestApi):
 * `can_read` / `can_write` on `Annotation`; names unique; an annotation's end not before its start.
 */
export class AnnotationLayerService {
  constructor(private readonly deps: { annotationLayers: AnnotationLayerRepository; security: SecurityService }) {}

  async listLayers(actor: Actor | null, query: ListQuery): Promise<ListResult<AnnotationLayerView>> {
    this.deps.security.require(actor, 'can_read', 'Annotation');
    const { count, rows } = await this.deps.annotationLayers.listLayers(query);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  private async layer(id: number): Promise<AnnotationLayerView> {
    const found = await this.deps.annotationLayers.getLayer(id);
    if (!found) throw new NotFound();
    return found;
  }

  async getLayer(actor: Actor | null, id: number): Promise<AnnotationLayerItem> {
    this.deps.security.require(actor, 'can_read', 'Annotation');
    const { name, descr } = await this.layer(id);
    return { id, name, descr };
  }

  private async checkLayerName(name: string, exceptId?: number): Promise<void> {
    if (await this.deps.annotationLayers.layerIdByName(name, exceptId)) throw new Unprocessable({ name: [LAYER_NAME_UNIQUE] });
  }

  /** A concurrent insert can pass the name check; the unique constraint then answers the same 422. */
  private async uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new Unprocessable({ name: [LAYER_NAME_UNIQUE] }, { cause: error });
      throw error;
    }
  }

  async createLayer(actor: Actor | null, input: AnnotationLayerCreate): Promise<AnnotationLayerItem> {
    this.deps.security.require(actor, 'can_write', 'Annotation');
    await this.checkLayerName(input.name);
    const id = await this.uniqueName(() => this.deps.annotationLayers.createLayer({ name: input.name, descr: input.descr ?? null, created_by_fk: actor.userId, changed_by_fk: actor.userId }));
    return this.getLayer(actor, id);
  }

  async updateLayer(actor: Actor | null, id: number, input: AnnotationLayerUpdate): Promise<AnnotationLayerItem> {
    this.deps.security.require(actor, 'can_write', 'Annotation');
    await this.layer(id);
    if (input.name !== undefined) await this.checkLayerName(input.name, id);
    const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    await this.uniqueName(() => this.deps.annotationLayers.updateLayer(id, { ...patch, changed_by_fk: actor.userId }));
    return this.getLayer(actor, id);
  }

  /** Deletes layers with their annotations; any missing id makes it a 404 and nothing is deleted. */
  async deleteLayers(actor: Actor | null, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'Annotation');
    const unique = [...new Set(ids)];
    const found = await this.deps.annotationLayers.existingLayerIds(unique);
    if (!unique.length || found.length !== unique.length) throw new NotFound();
    await this.deps.annotationLayers.deleteLayers(unique);
    return unique.length;
  }

  async listAnnotations(actor: Actor | null, layerId: number, query: ListQuery): Promise<ListResult<AnnotationView>> {
    this.deps.security.require(actor, 'can_read', 'Annotation');
    await this.layer(layerId);
    const { count, rows } = await this.deps.annotationLayers.listAnnotations(layerId, query);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  private async annotation(layerId: number, id: number): Promise<AnnotationView> {
    const found = await this.deps.annotationLayers.getAnnotation(layerId, id);
    if (!found) throw new NotFound();
    return found;
  }

  async getAnnotation(actor: Actor | null, layerId: number, id: number): Promise<AnnotationItem> {
    this.deps.security.require(actor, 'can_read', 'Annotation');
    const { layer, short_descr, long_descr, start_dttm, end_dttm, json_metadata } = await this.annotation(layerId, id);
    return { id, layer, short_descr, long_descr, start_dttm, end_dttm, json_metadata };
  }

  /** Superset's annotation command validation (422): dates in order, short description unique in the layer. */
  private async validateAnnotation(layerId: number, values: { short_descr?: string | null; start_dttm?: string | null; end_dttm?: string | null }, exceptId?: number) {
    const errors: Record<string, string[]> = annotationDateErrors(values);
    if (values.short_descr && (await this.deps.annotationLayers.annotationIdByShortDescr(layerId, values.short_descr, exceptId))) {
      errors.short_descr = [SHORT_DESCR_UNIQUE];
    }
    if (Object.keys(errors).length) throw new Unprocessable(errors);
  }

  async createAnnotation(actor: Actor | null, layerId: number, input: AnnotationCreate): Promise<AnnotationItem> {
    this.deps.security.require(actor, 'can_write', 'Annotation');
    await this.layer(layerId);
    await this.validateAnnotation(layerId, input);
    const id = await this.deps.annotationLayers.createAnnotation({
      layer_id: layerId,
      short_descr: input.short_descr,
      long_descr: input.long_descr ?? null,
      start_dttm: toDate(input.start_dttm),
      end_dttm: toDate(input.end_dttm),
      json_metadata: input.json_metadata ?? null,
      created_by_fk: actor.userId,
      changed_by_fk: actor.userId,
    });
    return this.getAnnotation(actor, layerId, id);
  }

  async updateAnnotation(actor: Actor | null, layerId: number, id: number, input: AnnotationUpdate): Promise<AnnotationItem> {
    this.deps.security.require(actor, 'can_write', 'Annotation');
    const current = await this.annotation(layerId, id);
    // Dates are checked as they will be stored, so moving only the start past the end is refused too.
    await this.validateAnnotation(layerId, { ...current, ...input }, id);
    const { start_dttm, end_dttm, ...rest } = input;
    const patch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    await this.deps.annotationLayers.updateAnnotation(id, {
      ...patch,
      ...(start_dttm !== undefined ? { start_dttm: toDate(start_dttm) } : {}),
      ...(end_dttm !== undefined ? { end_dttm: toDate(end_dttm) } : {}),
      changed_by_fk: actor.userId,
    });
    return this.getAnnotation(actor, layerId, id);
  }

  /** Deletes annotations of one layer; any id missing from the layer makes it a 404 and nothing is deleted. */
  async deleteAnnotations(actor: Actor | null, layerId: number, ids: number[]): Promise<number> {
    this.deps.security.require(actor, 'can_write', 'Annotation');
    await this.layer(layerId);
    const unique = [...new Set(ids)];
    const found = await this.deps.annotationLayers.existingAnnotationIds(layerId, unique);
    if (!unique.length || found.length !== unique.length) throw new NotFound();
    await this.deps.annotationLayers.deleteAnnotations(layerId, unique);
    return unique.length;
  }

  /**
   * The annotations of NATIVE layers for chart data, by layer id (datetimes as epoch ms). Like
   * Superset, chart data reads them without a permission check of its own: whoever may see the
   * chart sees its annotations.
   */
  async nativeAnnotations(layerIds: number[]): Promise<Map<number, AnnotationRecord[]>> {
    const existing = await this.deps.annotationLayers.existingLayerIds([...new Set(layerIds)]);
    return this.deps.annotationLayers.annotationsOfLayers(existing);
  }
}
