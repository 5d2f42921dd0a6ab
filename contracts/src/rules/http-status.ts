import { UNKNOWN_ERROR } from '../messages';

/** The HTTP status text map of spec 01 §8. */
export const HTTP_STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  407: 'Proxy authentication required',
  408: 'Request timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length required',
  412: 'Precondition failed',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  417: 'Expectation failed',
  418: "I'm a teapot",
  500: 'Server error',
  501: 'Not implemented',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
  505: 'HTTP version not supported',
  506: 'Variant also negotiates',
  507: 'Insufficient storage',
  508: 'Loop detected',
  510: 'Not extended',
  511: 'Network authentication required',
  599: 'Network error',
};

/** Text for a status code, or null when the map has none. */
export function statusTextOrNull(status: number): string | null {
  return HTTP_STATUS_TEXT[status] ?? null;
}

/** Text for a status code; anything outside the map gives 'Unknown error'. Example: `httpStatusText(404)` → 'Not found'. */
export function httpStatusText(status: number): string {
  return statusTextOrNull(status) ?? UNKNOWN_ERROR;
}
