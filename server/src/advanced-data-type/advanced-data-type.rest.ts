import type { FastifyInstance } from 'fastify';
import { stringify } from 'lossless-json';
import { z } from 'zod';
import { Invalid } from '../errors/domain-errors';
import { route } from '../rest/rest';
import { ADVANCED_DATA_TYPES } from './advanced-data-type';

const tags = ['Advanced Data Type'];
const Convert = z.object({ type: z.string().min(1), values: z.array(z.union([z.string(), z.number()])) });

/** /api/v1/advanced_data_type/: the types Meridian converts, and a conversion (no data is read: signed-in only). */
export function registerAdvancedDataTypeRest(app: FastifyInstance): void {
  route(app, { method: 'GET', url: '/api/v1/advanced_data_type/types', summary: 'The available advanced data types', tags }, () => ({ result: Object.keys(ADVANCED_DATA_TYPES) }));
  route(app, { method: 'GET', url: '/api/v1/advanced_data_type/convert', summary: 'Values typed by a user, converted for an advanced data type', tags, query: z.object({ q: z.unknown().optional() }), rison: true }, ({ query, reply }) => {
    const parsed = Convert.safeParse(query.q);
    if (!parsed.success) throw new Invalid({ q: ['Expected (type:<type>,values:!(<values>))'] });
    const convert = ADVANCED_DATA_TYPES[parsed.data.type];
    if (!convert) throw new Invalid(`Invalid advanced data type: ${parsed.data.type}`);
    // IPv6 values outgrow JSON's safe numbers: written with all their digits.
    return reply.header('content-type', 'application/json; charset=utf-8').send(stringify({ result: convert(parsed.data.values.map(String)) }));
  });
}
