// Upstream's apiserver_flowcontrol_* metrics (k8s pkg/util/flowcontrol/metrics/metrics.go), the
// main ones, with upstream's names and labels (priority_level, flow_schema, reason, execute).
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { ApfObserver } from './apf-controller.js';
import type { QueueSetObserver } from './queue-set.js';

const pf = ['priority_level', 'flow_schema'] as const;

/**
 * One (priority level, flow schema)'s occupancy, kept as plain numbers on the request path and
 * read into the gauges (and the dispatched counter) when /metrics is scraped: prom-client hashes
 * a label set on every call, and a request moved through its queue made ten such calls.
 */
interface Occupancy {
  labels: Record<(typeof pf)[number], string>;
  /** The labels of a dispatched request's wait. */
  waited: Record<(typeof pf)[number] | 'execute', string>;
  inqueue: number;
  inqueueSeats: number;
  executing: number;
  executingSeats: number;
  /** Dispatched since the last scrape. */
  dispatched: number;
}

export class ApfMetrics implements ApfObserver {
  readonly rejected: Counter<'priority_level' | 'flow_schema' | 'reason'>;
  readonly dispatched: Counter<(typeof pf)[number]>;
  readonly inqueueRequests: Gauge<(typeof pf)[number]>;
  readonly inqueueSeats: Gauge<(typeof pf)[number]>;
  readonly executingRequests: Gauge<(typeof pf)[number]>;
  readonly executingSeats: Gauge<(typeof pf)[number]>;
  readonly waitDuration: Histogram<'priority_level' | 'flow_schema' | 'execute'>;
  readonly limits: Record<'nominal' | 'current' | 'lower' | 'upper', Gauge<'priority_level'>>;
  readonly #observers = new Map<string, QueueSetObserver>();
  /** Level → flow schema → occupancy. */
  readonly #occupancy = new Map<string, Map<string, Occupancy>>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.rejected = new Counter({
      name: 'apiserver_flowcontrol_rejected_requests_total',
      help: 'Number of requests rejected by API Priority and Fairness subsystem',
      labelNames: [...pf, 'reason'],
      registers,
    });
    this.dispatched = new Counter({
      name: 'apiserver_flowcontrol_dispatched_requests_total',
      help: 'Number of requests executed by API Priority and Fairness subsystem',
      labelNames: pf,
      registers,
      collect() {
        for (const o of occupancy()) {
          if (o.dispatched) this.inc(o.labels, o.dispatched);
          o.dispatched = 0;
        }
      },
    });
    const occupancy = (): Iterable<Occupancy> =>
      [...this.#occupancy.values()].flatMap((byFs) => [...byFs.values()]);
    const gauge = (
      name: string,
      help: string,
      read: (o: Occupancy) => number
    ): Gauge<(typeof pf)[number]> =>
      new Gauge({
        name,
        help,
        labelNames: pf,
        registers,
        collect() {
          for (const o of occupancy()) this.set(o.labels, read(o));
        },
      });
    this.inqueueRequests = gauge(
      'apiserver_flowcontrol_current_inqueue_requests',
      'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
      (o) => o.inqueue
    );
    this.inqueueSeats = gauge(
      'apiserver_flowcontrol_current_inqueue_seats',
      'Number of seats currently pending in queues of the API Priority and Fairness subsystem',
      (o) => o.inqueueSeats
    );
    this.executingRequests = gauge(
      'apiserver_flowcontrol_current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      (o) => o.executing
    );
    this.executingSeats = gauge(
      'apiserver_flowcontrol_current_executing_seats',
      'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
      (o) => o.executingSeats
    );
    this.waitDuration = new Histogram({
      name: 'apiserver_flowcontrol_request_wait_duration_seconds',
      help: 'Length of time a request spent waiting in its queue',
      labelNames: [...pf, 'execute'],
      buckets: [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30],
      registers,
    });
    const limit = (what: string, help: string): Gauge<'priority_level'> =>
      new Gauge({
        name: `apiserver_flowcontrol_${what}_limit_seats`,
        help,
        labelNames: ['priority_level'],
        registers,
      });
    this.limits = {
      nominal: limit(
        'nominal',
        'Nominal number of execution seats configured for each priority level'
      ),
      current: limit(
        'current',
        'current derived number of execution seats available to each priority level'
      ),
      lower: limit(
        'lower',
        'Configured lower bound on number of execution seats available to each priority level'
      ),
      upper: limit(
        'upper',
        'Configured upper bound on number of execution seats available to each priority level'
      ),
    };
  }

  levelLimits(level: string, nominal: number, current: number, lower: number, upper: number): void {
    const l = { priority_level: level };
    this.limits.nominal.set(l, nominal);
    this.limits.current.set(l, current);
    this.limits.lower.set(l, lower);
    this.limits.upper.set(l, upper);
  }

  levelObserver(level: string): QueueSetObserver {
    let o = this.#observers.get(level);
    if (o) return o;
    const byFs = new Map<string, Occupancy>();
    this.#occupancy.set(level, byFs);
    const of = (fs: string): Occupancy => {
      let x = byFs.get(fs);
      if (!x) {
        x = {
          labels: { priority_level: level, flow_schema: fs },
          waited: { priority_level: level, flow_schema: fs, execute: 'true' },
          inqueue: 0,
          inqueueSeats: 0,
          executing: 0,
          executingSeats: 0,
          dispatched: 0,
        };
        byFs.set(fs, x);
      }
      return x;
    };
    o = {
      queued: (fs, delta, seats) => {
        const x = of(fs);
        x.inqueue += delta;
        x.inqueueSeats += delta * seats;
      },
      executing: (fs, delta, seats) => {
        const x = of(fs);
        x.executing += delta;
        x.executingSeats += delta * seats;
      },
      rejected: (fs, reason) => this.rejected.inc({ ...of(fs).labels, reason }),
      dispatched: (fs, waitedMs) => {
        const x = of(fs);
        x.dispatched++;
        this.waitDuration.observe(x.waited, waitedMs / 1000);
      },
    };
    this.#observers.set(level, o);
    return o;
  }
}
