/**
 * A saved line chart opened in Explore as the page saw it (in page time): its calls, when the chart read each
 * state, long tasks; round 2 also writes a CPU profile to /tmp/prof/explore.cpuprofile. What the bench's
 * "open a saved line chart" figure is made of. Run: npx tsx scripts/bench/timeline-explore.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { examplesPage } from './util';

const { url: serverUrl, page, lineChartId, close } = await examplesPage();
try {
  await page.addInitScript(() => {
    (globalThis as any).__name ??= (f: unknown) => f;
    const w = window as any;
    w.marks = [];
    w.longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) w.longtasks.push(`${Math.round(e.startTime)}+${Math.round(e.duration)}`); }).observe({ type: 'longtask', buffered: true });
    new MutationObserver((rs) => { for (const r of rs) w.marks.push(`${Math.round(performance.now())} ${(r.target as Element).getAttribute('data-chart-state')}`); }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-chart-state'] });
  });
  mkdirSync('/tmp/prof', { recursive: true });
  for (let i = 0; i < 4; i++) {
    const cdp = i === 2 ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const t0 = Date.now();
    await page.goto(`${serverUrl}/explore/?slice_id=${lineChartId}`);
    await page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor({ timeout: 60_000 });
    const total = Date.now() - t0;
    if (cdp) writeFileSync('/tmp/prof/explore.cpuprofile', JSON.stringify((await cdp.send('Profiler.stop')).profile));
    console.log(`round ${i}: ${total} ms`, await page.evaluate((watch) => {
      const w = window as any;
      const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => !r.name.includes('/static/')).map((r) => `${Math.round(r.startTime)}-${Math.round(r.responseEnd)} ${new URL(r.name).pathname}`);
      const chunks = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.includes('/static/'));
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const page = `page: response ${Math.round(nav.responseStart)}-${Math.round(nav.responseEnd)}, interactive ${Math.round(nav.domInteractive)}, DOMContentLoaded ${Math.round(nav.domContentLoadedEventEnd)}`;
      // The chunks in waves: a wave starts when a chunk begins more than 20 ms after the one before.
      const waves: string[] = [];
      let wave: PerformanceResourceTiming[] = [];
      const flush = () => wave.length && waves.push(`${Math.round(wave[0]!.startTime)}-${Math.round(Math.max(...wave.map((c) => c.responseEnd)))} ${wave.length} (${wave.slice(0, 3).map((c) => c.name.split('/').pop()!.replace(/-[\w-]{8}\.(js|css)$/, '')).join(' ')}…)`);
      for (const c of [...chunks].sort((a, b) => a.startTime - b.startTime)) {
        if (wave.length && c.startTime - wave[wave.length - 1]!.startTime > 20) { flush(); wave = []; }
        wave.push(c);
      }
      flush();
      // CHUNKS=<regex>: those chunks' own times.
      const watched = watch ? chunks.filter((c) => new RegExp(watch).test(c.name)).map((c) => `${c.name.split('/').pop()} ${Math.round(c.startTime)}-${Math.round(c.responseEnd)}`).join(', ') : '';
      const marks = performance.getEntriesByType('mark').map((m) => `${m.name}@${Math.round(m.startTime)}`).join(' ');
      return `\n  ${page} ${marks}\n  ${res.join('\n  ')}\n  chunks ${chunks.length} in waves: ${waves.join(' | ')}\n  states ${w.marks.join(' | ')}\n  long ${w.longtasks.join(' ')}${watched ? `\n  watched ${watched}` : ''}`;
    }, process.env.CHUNKS ?? ''));
  }
} finally {
  await close();
}
