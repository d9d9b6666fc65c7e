// Upstream's apiserver_flowcontrol_* metrics (k8s pkg/util/flowcontrol/metrics/metrics.go), the
// main ones, with upstream's names and labels (priority_level, flow_schema, reason, execute).
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { ApfObserver } from './apf-controller.js';
import type { QueueSetObserver } from './queue-set.js';

const pf = ['priority_level', 'flow_schema'] as const;

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
    });
    const gauge = (name: string, help: string): Gauge<(typeof pf)[number]> =>
      new Gauge({ name, help, labelNames: pf, registers });
    this.inqueueRequests = gauge(
      'apiserver_flowcontrol_current_inqueue_requests',
      'Number of requests currently pending in queues of the API Priority and Fairness subsystem'
    );
    this.inqueueSeats = gauge(
      'apiserver_flowcontrol_current_inqueue_seats',
      'Number of seats currently pending in queues of the API Priority and Fairness subsystem'
    );
    this.executingRequests = gauge(
      'apiserver_flowcontrol_current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem'
    );
    this.executingSeats = gauge(
      'apiserver_flowcontrol_current_executing_seats',
      'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem'
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
    const labels = (fs: string) => ({ priority_level: level, flow_schema: fs });
    o = {
      queued: (fs, delta, seats) => {
        this.inqueueRequests.inc(labels(fs), delta);
        this.inqueueSeats.inc(labels(fs), delta * seats);
      },
      executing: (fs, delta, seats) => {
        this.executingRequests.inc(labels(fs), delta);
        this.executingSeats.inc(labels(fs), delta * seats);
      },
      rejected: (fs, reason) => this.rejected.inc({ ...labels(fs), reason }),
      dispatched: (fs, waitedMs) => {
        this.dispatched.inc(labels(fs));
        this.waitDuration.observe({ ...labels(fs), execute: 'true' }, waitedMs / 1000);
      },
    };
    this.#observers.set(level, o);
    return o;
  }
}
