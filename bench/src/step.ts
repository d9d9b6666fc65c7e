// What every bench step gets, and what it is.
import type { Etcd3 } from 'etcd3';
import type { BenchClient, Gateway } from './client.js';
import type { AccountedProcess } from './cpu.js';
import type { Report } from './report.js';

export interface BenchContext {
  /** The two RBAC gateways, sharing one storage and the authorizer. */
  gateways: Gateway[];
  /** A gateway with --authorization-mode=AlwaysAllow, for the authorization cost. */
  allowGateway: Gateway;
  /** An RBAC gateway auditing every request at Metadata to a webhook that is down. */
  auditGateway: Gateway;
  /** An RBAC gateway with --enable-priority-and-fairness=false, for APF's cost. */
  noApfGateway: Gateway;
  /** Two gateways with --enable-fleet-priority-and-fairness=false (each accounts alone). */
  noFleetGateways: Gateway[];
  /** A raw etcd client on the suite's etcd, for baselines and seeding. */
  etcd: Etcd3;
  natsUrl: string;
  client: BenchClient;
  /** The gateways' serving certificate and the CA (the bare HTTPS baseline serves with them). */
  servingFiles: { certFile: string; keyFile: string; caFile: string };
  /** The cluster CA's certificate and key (a test node agent serves with a certificate of it). */
  clusterCa: { certFile: string; keyFile: string };
  /** Every process of the suite, for CPU accounting. */
  processes: readonly AccountedProcess[];
  report: Report;
}

/** One step of `make bench`, selected by name with BENCH_ONLY. */
export interface BenchStep {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}
