// What every bench step gets, and what it is.
import type { Etcd3 } from 'etcd3';
import type { BenchClient, Gateway } from './client.js';
import type { AccountedProcess } from './cpu.js';
import type { Report } from './report.js';
import type { extraGateways } from './bench-suite.js';

export type ExtraGateway = (typeof extraGateways)[number];

export interface BenchContext {
  /** The two RBAC gateways, sharing one storage and the authorizer. */
  gateways: Gateway[];
  /**
   * Starts (once) and answers one of the gateways a single step compares against:
   * `gateway-allow` (--authorization-mode=AlwaysAllow, the authorization cost), `gateway-audit`
   * (auditing every request at Metadata to a webhook that is down), `gateway-noapf`
   * (--enable-priority-and-fairness=false), `gateway-nofleet-a` and `-b`
   * (--enable-fleet-priority-and-fairness=false: each accounts alone). It runs until the step
   * ends; the others' CPU per operation is measured without it.
   */
  extraGateway(name: ExtraGateway): Promise<Gateway>;
  /** A raw etcd client on the suite's etcd, for baselines and seeding. */
  etcd: Etcd3;
  natsUrl: string;
  client: BenchClient;
  /** The gateways' serving certificate and the CA (the bare HTTPS baseline serves with them). */
  servingFiles: { certFile: string; keyFile: string; caFile: string };
  /** The cluster CA's certificate and key (a test node agent serves with a certificate of it). */
  clusterCa: { certFile: string; keyFile: string };
  /** Every process of the suite running now (the extra gateways while their step runs), for CPU accounting. */
  processes: readonly AccountedProcess[];
  report: Report;
}

/** One step of `make bench`, selected by name with BENCH_ONLY. */
export interface BenchStep {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}
