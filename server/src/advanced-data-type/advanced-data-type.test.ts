import { describe, expect, it } from 'vitest';
import { ADVANCED_DATA_TYPES } from './advanced-data-type';

const { internet_address: ip, port } = ADVANCED_DATA_TYPES as Required<typeof ADVANCED_DATA_TYPES>;

describe('advanced data types (internet address, port)', () => {
  it('reads an IPv4 address as its integer and a network as its first and last address', () => {
    const answer = ip!(['10.0.0.1', '192.168.0.0/16']);
    expect(answer.error_message).toBe('');
    expect(answer.values).toEqual([167772161n, { start: 3232235520n, end: 3232301055n }]);
    expect(answer.display_value).toBe('167772161, 3232235520 - 3232301055');
    expect(answer.valid_filter_operators).toEqual(['==', '>=', '>', 'IN', '<', '<=']);
  });

  it('reads IPv6 networks past what a JavaScript number holds, and an address given as an integer', () => {
    expect(ip!(['2001:db8::/127']).values).toEqual([{ start: 42540766411282592856903984951653826560n, end: 42540766411282592856903984951653826561n }]);
    expect(ip!(['3232235521']).values).toEqual([3232235521n]);
  });

  it('says which value is not an address, as Superset does', () => {
    expect(ip!(['10.0.0.1', 'nope']).error_message).toBe("'nope' does not appear to be an IPv4 or IPv6 network");
  });

  it('reads ports by number or by service name, and refuses the rest', () => {
    const answer = port!(['443', 'ftp', 'SSH']);
    expect(answer.values).toEqual([[443n], [20n, 21n], [22n]]);
    expect(answer.display_value).toBe('443, 20, 21, 22');
    expect(port!(['70000']).error_message).toBe("'70000' does not appear to be a port name or number");
    expect(port!(['gopher']).error_message).toBe("'gopher' does not appear to be a port name or number");
  });
});
