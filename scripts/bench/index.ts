/**
 * `pnpm bench`: Meridian's speed and memory figures, each printed as a ratio to a baseline measured
 * in the same run (raw driver, `node -e 0`, plain JSON.stringify ...). Never a pass/fail test.
 * Run one section with `pnpm bench <name>`.
 */
import { foundationBench } from './foundation.bench';
import { queryBench } from './query.bench';
import { sqllabBench } from './sqllab.bench';
import { chartDataBench } from './chart-data.bench';
import { exploreBench } from './explore.bench';
import { uploadBench } from './upload.bench';
import { reportBench } from './report.bench';
import { loadBench } from './load.bench';

const sections: Record<string, () => Promise<void>> = {
  foundation: foundationBench,
  query: queryBench,
  sqllab: sqllabBench,
  'chart-data': chartDataBench,
  explore: exploreBench,
  upload: uploadBench,
  report: reportBench,
  load: loadBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  await run();
}
