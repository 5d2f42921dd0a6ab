import { CronExpressionParser } from 'cron-parser';
import type { MetadataDb } from '../db/database';
import type { Logger } from '../logger';
import type { ReportExecutor } from './report-executor';
import type { ReportService } from './report.service';
import type { MeridianJobQueue } from '../jobs/jobs';

/** A claimed report run in the job queue. */
export interface ReportJob {
  reportId: number;
  /** The scheduled time, ISO 8601. */
  scheduledAt: string;
}

/** Claims are kept this long (a run is claimed once; old claims only take room). */
const CLAIM_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** Old logs and claims are swept this often (retention is counted in days: a minute's sweep would be wasted work). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The latest time the crontab names in (from, to], in its time zone, or null. */
export function dueAt(crontab: string, timezone: string, from: Date, to: Date): Date | null {
  try {
    // prev() is strictly before currentDate: start a millisecond after `to` so that `to` itself counts.
    const at = CronExpressionParser.parse(crontab, { currentDate: new Date(to.getTime() + 1), tz: timezone || 'UTC' }).prev().toDate();
    return at > from && at <= to ? at : null;
  } catch {
    return null;
  }
}

/**
 * Looks for due reports every tick (on the minute, as Superset's beat) and runs each due one once: a process
 * claims a run by inserting its (schedule, scheduled time) row in the metadata store, which only one insert
 * can do, so several web processes on one metadata store never run or send a report twice. After a pause
 * (the process was down), only the latest missed time of each schedule runs.
 */
export class ReportScheduler {
  private timer: NodeJS.Timeout | null = null;
  private lastTick: Date | null = null;
  private lastPrune: number | null = null;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: {
      db: MetadataDb;
      reports: ReportService;
      executor: ReportExecutor;
      logger: Logger;
      instance: string;
      tickSeconds: number;
      /** With a distributed queue, claimed runs go to it and any worker sends them; else this process runs them. */
      jobs: () => Pick<MeridianJobQueue, 'submit' | 'distributed'>;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    const period = this.deps.tickSeconds * 1000;
    const next = () => {
      // On the tick boundary (a minute by default), so a `* * * * *` report is sent within a second of its time.
      this.timer = setTimeout(() => {
        void this.tick().catch((error) => this.deps.logger.error({ err: error }, 'report scheduler tick failed'));
        next();
      }, period - (Date.now() % period) + 50);
      this.timer.unref();
    };
    next();
  }

  /** Runs what fell due since the last tick (the last tick period on the first); resolves when those runs end. */
  async tick(now = new Date()): Promise<number> {
    const from = this.lastTick ?? new Date(now.getTime() - this.deps.tickSeconds * 1000);
    this.lastTick = now;
    const runs: Promise<unknown>[] = [];
    for (const s of await this.deps.reports.activeSchedules()) {
      const at = dueAt(s.crontab, s.timezone, from, now);
      if (!at || !(await this.claim(s.id, at))) continue;
      const jobs = this.deps.jobs();
      if (jobs.distributed) {
        try {
          await jobs.submit('report', { reportId: s.id, scheduledAt: at.toISOString() });
          continue;
        } catch (error) {
          // The run is claimed: no other process will run it. Rather than lose it, this process does.
          this.deps.logger.warn({ err: error, report: s.id }, 'report run could not be queued: running it here');
        }
      }
      const run = this.deps.executor.execute(s.id, at).catch((error) => this.deps.logger.error({ err: error, report: s.id }, 'report run failed'));
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
      runs.push(run);
    }
    if (this.lastPrune === null || now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now.getTime();
      await this.deps.reports.pruneLogs(now);
      await this.deps.db.deleteFrom('report_schedule_run').where('claimed_on', '<', new Date(now.getTime() - CLAIM_KEEP_MS)).execute();
    }
    await Promise.all(runs);
    return runs.length;
  }

  /** True for the one process whose insert of this run's row succeeds. */
  async claim(id: number, at: Date): Promise<boolean> {
    const row = await this.deps.db
      .insertInto('report_schedule_run')
      .values({ report_schedule_id: id, scheduled_dttm: at, claimed_by: this.deps.instance })
      .onConflict((oc) => oc.columns(['report_schedule_id', 'scheduled_dttm']).doNothing())
      .returning('report_schedule_id')
      .executeTakeFirst();
    return !!row;
  }

  /** Stops looking, and waits for runs under way. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }
}
