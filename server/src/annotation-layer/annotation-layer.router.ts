import { z } from 'zod';
import { AnnotationCreateSchema, AnnotationLayerCreateSchema, AnnotationLayerUpdateSchema, AnnotationUpdateSchema, ListQuerySchema } from '@meridian/contracts';
import { permissionProcedure, router } from '../trpc/trpc';

const Id = z.object({ id: z.number().int() });
const Ids = z.object({ ids: z.array(z.number().int()).min(1) });
const LayerId = z.object({ layerId: z.number().int() });

/** tRPC door onto the same AnnotationLayerService as /api/v1/annotation_layer/. */
export const annotationLayerRouter = router({
  list: permissionProcedure('can_read', 'Annotation').input(ListQuerySchema).query(({ ctx, input }) => ctx.services.annotationLayers.listLayers(ctx.actor, input)),
  get: permissionProcedure('can_read', 'Annotation').input(Id).query(({ ctx, input }) => ctx.services.annotationLayers.getLayer(ctx.actor, input.id)),
  create: permissionProcedure('can_write', 'Annotation').input(AnnotationLayerCreateSchema).mutation(({ ctx, input }) => ctx.services.annotationLayers.createLayer(ctx.actor, input)),
  update: permissionProcedure('can_write', 'Annotation').input(Id.extend({ changes: AnnotationLayerUpdateSchema })).mutation(({ ctx, input }) => ctx.services.annotationLayers.updateLayer(ctx.actor, input.id, input.changes)),
  delete: permissionProcedure('can_write', 'Annotation').input(Ids).mutation(({ ctx, input }) => ctx.services.annotationLayers.deleteLayers(ctx.actor, input.ids)),
  annotations: router({
    list: permissionProcedure('can_read', 'Annotation').input(LayerId.extend({ query: ListQuerySchema })).query(({ ctx, input }) => ctx.services.annotationLayers.listAnnotations(ctx.actor, input.layerId, input.query)),
    get: permissionProcedure('can_read', 'Annotation').input(LayerId.merge(Id)).query(({ ctx, input }) => ctx.services.annotationLayers.getAnnotation(ctx.actor, input.layerId, input.id)),
    create: permissionProcedure('can_write', 'Annotation').input(LayerId.extend({ annotation: AnnotationCreateSchema })).mutation(({ ctx, input }) => ctx.services.annotationLayers.createAnnotation(ctx.actor, input.layerId, input.annotation)),
    update: permissionProcedure('can_write', 'Annotation')
      .input(LayerId.merge(Id).extend({ changes: AnnotationUpdateSchema }))
      .mutation(({ ctx, input }) => ctx.services.annotationLayers.updateAnnotation(ctx.actor, input.layerId, input.id, input.changes)),
    delete: permissionProcedure('can_write', 'Annotation').input(LayerId.merge(Ids)).mutation(({ ctx, input }) => ctx.services.annotationLayers.deleteAnnotations(ctx.actor, input.layerId, input.ids)),
  }),
});
