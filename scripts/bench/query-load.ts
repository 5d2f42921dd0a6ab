/**
 * The load generator of the query bench's figure (c), run as a process of its own that the bench
 * nices: it stands in for clients on other machines, so its own work (receiving and counting
 * 4 x 1M rows) must not take CPU from the server it measures. Reads a {@link SqlLabTarget} and a
 * query count as JSON from argv, runs that many execute + every page at once, prints the rows each
 * received as JSON.
 */
import { executeAndFetchAll, type SqlLabTarget } from './sqllab-client';

const { target, queries } = JSON.parse(process.argv[2]) as { target: SqlLabTarget; queries: number };
const stamp = Date.now() % 1e5;
// The bench starts sampling /health at this line: the queries start now.
process.stdout.write('started\n');
const done = await Promise.all(Array.from({ length: queries }, (_, i) => executeAndFetchAll(target, `busy${i}${stamp}`.slice(0, 11))));
process.stdout.write(`${JSON.stringify(done.map((d) => d.fetched))}\n`);
