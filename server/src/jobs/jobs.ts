import type { Config } from '../config';
import type { Logger } from '../logger';
import type { ChartDataJob } from '../chart-data/chart-data.service';
import type { ReportJob } from '../report/report-scheduler';
import type { SqlLabJob } from '../sqllab/sqllab.service';
import { BullJobQueue, InProcessJobQueue, type JobQueue } from './job-queue';

/** Meridian's background jobs, by kind. */
export interface MeridianJobs {
  sqllab: SqlLabJob;
  'chart-data': ChartDataJob;
  report: ReportJob;
}

export type MeridianJobQueue = JobQueue<MeridianJobs>;

/** BullMQ on Redis when REDIS_URL is set (many processes), else the in-process queue (the embedded default). */
export function createJobQueue(config: Pick<Config, 'redisUrl' | 'jobs'>, logger: Logger, onAbandoned?: (kind: string, data: unknown) => Promise<void>): MeridianJobQueue {
  if (!config.redisUrl) return new InProcessJobQueue<MeridianJobs>(logger);
  return new BullJobQueue<MeridianJobs>({ redisUrl: config.redisUrl, queueName: config.jobs.queueName, lockSeconds: config.jobs.lockSeconds, logger, onAbandoned });
}
