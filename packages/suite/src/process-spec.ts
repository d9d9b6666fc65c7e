// One process of the suite as the description gives it: what runs, with which flags and
// environment, and how the launcher knows it is ready.
import type { TlsFiles } from '@orch/component-base/grpc-server';

/** How the launcher knows a process serves; a process lists one or more, all must pass. */
export type Readiness =
  /** GET answers 200 and, when `body` is given, it accepts the body (etcd /health, NATS). */
  | { kind: 'http'; url: string; body?: (text: string) => boolean }
  /** GET over HTTPS with a client certificate answers 200 (a gateway's /readyz). */
  | { kind: 'https'; url: string; tls: TlsFiles }
  /** grpc.health.v1 Check of the whole server (service '') answers SERVING, over mutual TLS. */
  | { kind: 'grpc-health'; address: string; tls: TlsFiles }
  /** No endpoint to ask: ready once it has run `forMs` without exiting. */
  | { kind: 'running'; forMs: number };

export interface ProcessSpec {
  /** Unique in the suite; also the log file's name, `<name>.log`. */
  name: string;
  /** What it is; several processes may share a role (gateways, storage replicas). */
  role: string;
  /** The executable; `process.execPath` for the suite's own Node services. */
  command: string;
  args: string[];
  /** Default: the launcher's environment. */
  env?: NodeJS.ProcessEnv;
  ready: Readiness[];
  /** How long `ready` may take before the start fails. */
  timeoutMs: number;
}
