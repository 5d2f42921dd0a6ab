import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AnnotationCreateSchema, AnnotationLayerCreateSchema, AnnotationLayerUpdateSchema, AnnotationUpdateSchema } from '@meridian/contracts';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated } from '../rest/related';
import { ANNOTATION_LAYER_ORDER_COLUMNS, ANNOTATION_ORDER_COLUMNS } from './annotation-layer.repository';

const tags = ['Annotation Layers'];
const AnnotationParams = PkParams.extend({ annotation_id: z.coerce.number().int() });
const ListParams = z.object({ q: z.unknown().optional() });
const DeleteIds = z.object({ q: z.array(z.coerce.number().int()) });
const plural = (n: number, one: string, many: string) => `Deleted ${n} ${n === 1 ? one : many}`;
/** The write answers carry the fields of Superset's post/put schemas. */
const layerFields = ({ name, descr }: { name: string; descr: string | null }) => ({ name, descr });
const annotationFields = ({ short_descr, long_descr, start_dttm, end_dttm, json_metadata }: Record<string, unknown>) => ({ short_descr, long_descr, start_dttm, end_dttm, json_metadata });

/** /api/v1/annotation_layer/ and its /annotation/ sub-resource, as Superset's AnnotationLayerRestApi and AnnotationRestApi. */
const ANNOTATION_LAYER_INFO: InfoSpec = {
  view: 'Annotation',
  title: 'Annotation Layer',
  add: AnnotationLayerCreateSchema,
  edit: AnnotationLayerUpdateSchema,
  filters: { name: ['ct', 'eq', 'sw', 'ew'], descr: ['ct'], created_by: ['rel_o_m'], changed_by: ['rel_o_m'] },
  permissions: ['can_read', 'can_write'],
};

export function registerAnnotationLayerRest(app: FastifyInstance, services: Services): void {
  const { annotationLayers } = services;
  route(app, { method: 'GET', url: '/api/v1/annotation_layer/_info', permission: ['can_read', 'Annotation'], summary: "What can be added, edited and filtered, and the caller's permissions on annotation layers", tags, query: z.object({ q: z.unknown().optional() }), rison: true }, ({ actor, query }) =>
    infoAnswer(ANNOTATION_LAYER_INFO, actor!, query.q),
  );
  registerRelated(app, services, { resource: 'annotation_layer', view: 'Annotation', tags, users: ['created_by', 'changed_by'] });

  route(app, { method: 'GET', url: '/api/v1/annotation_layer/', list: { title: 'List Annotation Layer', orderColumns: ANNOTATION_LAYER_ORDER_COLUMNS }, permission: ['can_read', 'Annotation'], summary: 'List annotation layers', tags, query: ListParams }, ({ actor, query }) =>
    annotationLayers.listLayers(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/annotation_layer/:pk', item: { title: 'Show Annotation Layer' }, permission: ['can_read', 'Annotation'], summary: 'Get an annotation layer', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await annotationLayers.getLayer(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/annotation_layer/', permission: ['can_write', 'Annotation'], summary: 'Create an annotation layer', tags, body: AnnotationLayerCreateSchema, status: 201 }, async ({ actor, body }) => {
    const layer = await annotationLayers.createLayer(actor, body);
    return { id: layer.id, result: layerFields(layer) };
  });
  route(app, { method: 'PUT', url: '/api/v1/annotation_layer/:pk', permission: ['can_write', 'Annotation'], summary: 'Update an annotation layer', tags, params: PkParams, body: AnnotationLayerUpdateSchema }, async ({ actor, params, body }) => {
    const layer = await annotationLayers.updateLayer(actor, params.pk, body);
    return { id: layer.id, result: layerFields(layer) };
  });
  route(app, { method: 'DELETE', url: '/api/v1/annotation_layer/:pk', permission: ['can_write', 'Annotation'], summary: 'Delete an annotation layer and its annotations', tags, params: PkParams }, async ({ actor, params }) => {
    await annotationLayers.deleteLayers(actor, [params.pk]);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/annotation_layer/', permission: ['can_write', 'Annotation'], summary: 'Delete annotation layers in bulk (q=!(1,2))', tags, rison: true, query: DeleteIds }, async ({ actor, query }) => ({
    message: plural(await annotationLayers.deleteLayers(actor, query.q), 'annotation layer', 'annotation layers'),
  }));

  route(app, { method: 'GET', url: '/api/v1/annotation_layer/:pk/annotation/', list: { title: 'List Annotation', orderColumns: ANNOTATION_ORDER_COLUMNS }, permission: ['can_read', 'Annotation'], summary: "List a layer's annotations", tags, params: PkParams, query: ListParams }, ({ actor, params, query }) =>
    annotationLayers.listAnnotations(actor, params.pk, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/annotation_layer/:pk/annotation/:annotation_id', permission: ['can_read', 'Annotation'], summary: 'Get an annotation', tags, params: AnnotationParams }, async ({ actor, params }) => ({
    id: params.annotation_id,
    result: await annotationLayers.getAnnotation(actor, params.pk, params.annotation_id),
  }));
  route(app, { method: 'POST', url: '/api/v1/annotation_layer/:pk/annotation/', permission: ['can_write', 'Annotation'], summary: 'Create an annotation', tags, params: PkParams, body: AnnotationCreateSchema, status: 201 }, async ({ actor, params, body }) => {
    const annotation = await annotationLayers.createAnnotation(actor, params.pk, body);
    return { id: annotation.id, result: annotationFields(annotation) };
  });
  route(app, { method: 'PUT', url: '/api/v1/annotation_layer/:pk/annotation/:annotation_id', permission: ['can_write', 'Annotation'], summary: 'Update an annotation', tags, params: AnnotationParams, body: AnnotationUpdateSchema }, async ({ actor, params, body }) => {
    const annotation = await annotationLayers.updateAnnotation(actor, params.pk, params.annotation_id, body);
    return { id: annotation.id, result: annotationFields(annotation) };
  });
  route(app, { method: 'DELETE', url: '/api/v1/annotation_layer/:pk/annotation/:annotation_id', permission: ['can_write', 'Annotation'], summary: 'Delete an annotation', tags, params: AnnotationParams }, async ({ actor, params }) => {
    await annotationLayers.deleteAnnotations(actor, params.pk, [params.annotation_id]);
    return { message: 'OK' };
  });
  route(
    app,
    { method: 'DELETE', url: '/api/v1/annotation_layer/:pk/annotation/', permission: ['can_write', 'Annotation'], summary: "Delete a layer's annotations in bulk (q=!(1,2))", tags, params: PkParams, rison: true, query: DeleteIds },
    async ({ actor, params, query }) => ({ message: plural(await annotationLayers.deleteAnnotations(actor, params.pk, query.q), 'annotation', 'annotations') }),
  );
}
