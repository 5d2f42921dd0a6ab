import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { redisConnection } from '../common/redis';
import type { Logger } from '../logger';

/** How a handler is given a job: its data, and whether a process that died had taken it before. */
export interface JobDelivery {
  /** True when this job was taken by a process that stopped before finishing it (BullMQ's stalled job). */
  redelivered: boolean;
}

/** One handler per job kind; a handler records its own outcome (a thrown error is only logged). */
export type JobHandlers<P> = { [K in keyof P]: (data: P[K], delivery: JobDelivery) => Promise<void> };

/**
 * Where background work goes: async SQL Lab queries, async chart data and report runs. In one
 * process (no Redis) a job runs at once in the background; with REDIS_URL it goes through BullMQ,
 * and any web process (WEB_RUNS_JOBS) or `meridian worker` of the deployment takes it.
 */
export interface JobQueue<P> {
  /** True when jobs may run in another process (BullMQ). */
  readonly distributed: boolean;
  /** The handlers: set once, before the first job is submitted or taken. */
  handle(handlers: JobHandlers<P>): void;
  submit<K extends keyof P & string>(kind: K, data: P[K]): Promise<void>;
  /** Takes jobs from the queue, at most `concurrency` at a time (a no-op in one process, where submit runs them). */
  consume(concurrency: number): void;
  /** Tells every process of the deployment to stop a query it runs (stop from any web process reaches the worker). */
  broadcastStop(clientId: string): Promise<void>;
  /** Called in this process for every stop broadcast (its own included). */
  onStop(listener: (clientId: string) => void): void;
  /** Resolves when the jobs this process runs have ended (tests, graceful shutdown). */
  idle(): Promise<void>;
  /** Stops taking jobs and waits for those under way. */
  close(): Promise<void>;
}

/** What both queues do alike: the jobs this process runs, waited for by `idle`, and the stop listeners. */
abstract class JobsOfThisProcess {
  private readonly running = new Set<Promise<void>>();
  private readonly stopListeners: Array<(clientId: string) => void> = [];

  /** Runs a handler as a job of this process; its errors are logged (a handler records its own outcome). */
  protected track(run: Promise<void>, logger: Logger, kind: string): Promise<void> {
    const tracked = run.catch((err: unknown) => logger.error({ err, kind }, 'background job failed unexpectedly'));
    this.running.add(tracked);
    return tracked.finally(() => this.running.delete(tracked));
  }

  protected notifyStop(clientId: string): void {
    for (const listener of this.stopListeners) listener(clientId);
  }

  onStop(listener: (clientId: string) => void): void {
    this.stopListeners.push(listener);
  }

  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}

/** Jobs run in this process, in the background: the embedded default. */
export class InProcessJobQueue<P> extends JobsOfThisProcess implements JobQueue<P> {
  readonly distributed = false;
  private handlers: JobHandlers<P> | null = null;

  constructor(private readonly logger: Logger) {
    super();
  }

  handle(handlers: JobHandlers<P>): void {
    this.handlers = handlers;
  }

  async submit<K extends keyof P & string>(kind: K, data: P[K]): Promise<void> {
    const handler = this.handlers?.[kind];
    if (!handler) throw new Error(`no handler for ${kind} jobs`);
    // After the caller answered (as a queued job would be): the job never delays the request that made it.
    void this.track(new Promise<void>((done) => setImmediate(done)).then(() => handler(data, { redelivered: false })), this.logger, kind);
  }

  consume(): void {}

  async broadcastStop(clientId: string): Promise<void> {
    this.notifyStop(clientId);
  }

  async close(): Promise<void> {
    await this.idle();
  }
}

/** BullMQ leaves this text on a job that stalled more often than maxStalledCount allows. */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/**
 * BullMQ on Redis: one queue per deployment (JOB_QUEUE), job name = kind. A job taken by a process
 * that dies stalls when its lock runs out and is handed once more to a live process with
 * `redelivered`, whose handler fails it clearly or runs it again when that is safe; should that one
 * die as well, `onAbandoned` fails it. Stops travel on a Redis channel to every process.
 */
export class BullJobQueue<P> extends JobsOfThisProcess implements JobQueue<P> {
  readonly distributed = true;
  private handlers: JobHandlers<P> | null = null;
  // BullMQ is loaded only by a process that uses Redis: the embedded default starts without it.
  private readonly queue: Promise<Queue>;
  private worker: Promise<Worker> | null = null;
  private subscriber: Redis | null = null;
  private publisher: Redis | null = null;
  private readonly stopChannel: string;

  constructor(
    private readonly opts: {
      redisUrl: string;
      queueName: string;
      lockSeconds: number;
      logger: Logger;
      /** A job no live process will take again (it stalled twice): the owner records the failure. */
      onAbandoned?: (kind: string, data: unknown) => Promise<void>;
    },
  ) {
    super();
    // A submit while Redis is away fails after a few tries (the request that submits answers an error) instead of hanging.
    this.queue = import('bullmq').then(({ Queue }) => {
      const queue = new Queue(opts.queueName, { connection: redisConnection(opts.redisUrl), defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: 1000 } } });
      queue.on('error', (err) => opts.logger.warn({ err }, 'job queue connection error'));
      return queue;
    });
    this.stopChannel = `meridian:${opts.queueName}:stop`;
  }

  /** BullMQ wants its own connections, and ones that retry for ever while Redis is away (a restart must not lose a worker). */
  private connection(): Redis {
    return redisConnection(this.opts.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
  }

  handle(handlers: JobHandlers<P>): void {
    this.handlers = handlers;
    // Every process that may run a query listens for stops, also web processes that take no jobs.
    this.subscriber ??= this.listenForStops();
  }

  async submit<K extends keyof P & string>(kind: K, data: P[K]): Promise<void> {
    await (await this.queue).add(kind, data);
  }

  consume(concurrency: number): void {
    if (this.worker) return;
    this.worker = import('bullmq').then(({ Worker }) => this.startWorker(Worker, concurrency));
  }

  private startWorker(WorkerClass: typeof Worker, concurrency: number): Worker {
    const lockDuration = this.opts.lockSeconds * 1000;
    const worker = new WorkerClass(
      this.opts.queueName,
      async (job: Job) => {
        const handler = this.handlers?.[job.name as keyof P];
        if (!handler) throw new Error(`no handler for ${job.name} jobs`);
        await this.track(handler(job.data, { redelivered: job.stalledCounter > 0 }), this.opts.logger, job.name);
      },
      // One job per pool thread: a process takes no more than it can start, so idle processes get the rest.
      { connection: this.connection(), concurrency: Math.max(1, concurrency), lockDuration, stalledInterval: lockDuration, maxStalledCount: 1 },
    );
    worker.on('error', (err) => this.opts.logger.warn({ err }, 'job worker connection error'));
    worker.on('failed', (job, err) => {
      if (!job || !STALLED_TOO_OFTEN.test(err.message)) return;
      this.opts.logger.error({ kind: job.name, job: job.id }, 'a job was abandoned: the processes that took it stopped');
      void this.opts.onAbandoned?.(job.name, job.data).catch((error: unknown) => this.opts.logger.error({ err: error }, 'recording an abandoned job failed'));
    });
    return worker;
  }

  private listenForStops(): Redis {
    const subscriber = this.connection();
    void subscriber.subscribe(this.stopChannel).catch((err: unknown) => this.opts.logger.warn({ err }, 'could not listen for stops'));
    subscriber.on('message', (channel, clientId) => {
      if (channel === this.stopChannel) this.notifyStop(clientId);
    });
    return subscriber;
  }

  async broadcastStop(clientId: string): Promise<void> {
    this.publisher ??= this.connection();
    await this.publisher.publish(this.stopChannel, clientId);
  }

  async close(): Promise<void> {
    await (await this.worker)?.close();
    await (await this.queue).close();
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
    this.worker = null;
  }
}
