import { describe, expect, it } from 'vitest';
import { annotationLayerRequest, annotationQueryKey, formulaExpression, NEW_ANNOTATION_LAYER, requiresQuery, sourceTypesFor, validateAnnotationLayer, withoutQueriedLayers, type AnnotationLayer } from './annotations';

const layer = (patch: Partial<AnnotationLayer>): AnnotationLayer => ({ ...NEW_ANNOTATION_LAYER, ...patch });
const parses = (e: string) => !e.includes('+)');

describe('annotation layers', () => {
  it('offers annotations or a table for events and intervals, a line chart for a time series, nothing for a formula', () => {
    expect(sourceTypesFor('EVENT')).toEqual(['NATIVE', 'table']);
    expect(sourceTypesFor('INTERVAL')).toEqual(['NATIVE', 'table']);
    expect(sourceTypesFor('TIME_SERIES')).toEqual(['line']);
    expect(sourceTypesFor('FORMULA')).toEqual([]);
  });

  it('queries shown layers with a source, never formulas or hidden layers', () => {
    expect(requiresQuery(layer({ annotationType: 'EVENT', sourceType: 'NATIVE' }))).toBe(true);
    expect(requiresQuery(layer({ annotationType: 'EVENT', sourceType: 'NATIVE', show: false }))).toBe(false);
    expect(requiresQuery(layer({ annotationType: 'FORMULA', value: 'x' }))).toBe(false);
  });

  it('validates name (unique), value, formula and a table source’s columns', () => {
    expect(validateAnnotationLayer(layer({}), [], parses)).toEqual({ name: 'Name is required', value: 'Value is required' });
    expect(validateAnnotationLayer(layer({ name: 'a', value: '2*(x+)' }), [{ name: 'a' }], parses)).toEqual({ name: 'A layer with this name already exists', value: 'Invalid formula expression' });
    expect(validateAnnotationLayer(layer({ name: 'b', annotationType: 'INTERVAL', sourceType: 'table', value: 3 }), [], parses)).toEqual({ timeColumn: 'Time column is required', intervalEndColumn: 'Interval end column is required' });
    expect(validateAnnotationLayer(layer({ name: 'c', annotationType: 'EVENT', sourceType: 'NATIVE', value: 1 }), [], parses)).toEqual({});
  });

  it('reads a formula with or without its "y =" prefix', () => {
    expect(formulaExpression('y = 2*x + 1')).toBe('2*x + 1');
    expect(formulaExpression('x^2')).toBe('x^2');
  });

  it('queries a layer again only when what it asks changes, not its style', () => {
    const a = layer({ name: 'a', annotationType: 'EVENT', sourceType: 'NATIVE', value: 1 });
    expect(annotationQueryKey({ ...a, color: '#f00', width: 3 })).toBe(annotationQueryKey(a));
    expect(annotationQueryKey({ ...a, value: 2 })).not.toBe(annotationQueryKey(a));
  });

  it('asks one layer with the chart’s own query limited to a row, and leaves queried layers out of the chart’s request', () => {
    const events = layer({ name: 'events', annotationType: 'EVENT', sourceType: 'NATIVE', value: 1 });
    const formula = layer({ name: 'trend', value: 'x' });
    const context = { datasource: { id: 1, type: 'table' }, queries: [{ metrics: ['count'], row_limit: 1000, annotation_layers: [events, formula] }] };
    expect(annotationLayerRequest(context, events).queries).toEqual([{ metrics: ['count'], row_limit: 1, annotation_layers: [events] }]);
    expect(withoutQueriedLayers(context).queries[0]!.annotation_layers).toEqual([formula]);
    expect(context.queries[0]!.annotation_layers).toHaveLength(2);
  });
});
