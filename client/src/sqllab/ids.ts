import { QUERY_ID_LENGTH } from '@meridian/contracts/rules/constants';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A client-generated id of `length` characters (queries use 11, spec 01 §9). */
export function shortId(length = QUERY_ID_LENGTH): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte & 63];
  return id;
}
