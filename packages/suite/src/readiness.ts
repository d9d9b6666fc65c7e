// One probe per readiness kind: true once the process serves, false (or a rejection, with the
// reason) while it does not yet.
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
import { HealthClient, clientCredentials } from '@orch/component-base/grpc-server';
import type { TlsFiles } from '@orch/component-base/grpc-server';
import type { Readiness } from './process-spec.js';

const probeTimeoutMs = 2000;

/**
 * Asks once whether `r` holds. `running` is judged by the launcher (it knows whether the
 * process is still alive), so here it only says whether its time has passed.
 */
export async function probeReadiness(r: Readiness, startedAt: number): Promise<boolean> {
  switch (r.kind) {
    case 'http': {
      const res = await fetch(r.url, { signal: AbortSignal.timeout(probeTimeoutMs) });
      const text = await res.text();
      return res.status === 200 && (r.body === undefined || r.body(text));
    }
    case 'https':
      return (await httpsGetStatus(r.url, r.tls)) === 200;
    case 'grpc-health':
      return (await grpcHealth(r.address, r.tls)) === 'SERVING';
    case 'running':
      return Date.now() - startedAt >= r.forMs;
  }
}

/** A readable name of the readiness kind, for messages. */
export function describeReadiness(r: Readiness): string {
  switch (r.kind) {
    case 'http':
    case 'https':
      return `GET ${r.url}`;
    case 'grpc-health':
      return `gRPC health of ${r.address}`;
    case 'running':
      return `${r.forMs} ms running`;
  }
}

/**
 * One value per set of TLS files, made once for the many probes of a start (a probe given
 * ca/cert/key of its own parses them into a new TLS context each time).
 */
function perFiles<T>(make: (tls: TlsFiles) => T): (tls: TlsFiles) => T {
  const made = new Map<string, T>();
  return (tls) => {
    const key = `${tls.caFile}\0${tls.certFile}\0${tls.keyFile}`;
    let v = made.get(key);
    if (v === undefined) {
      v = make(tls);
      made.set(key, v);
    }
    return v;
  };
}

const agentOf = perFiles((tls) => {
  const secureContext = createSecureContext({
    ca: readFileSync(tls.caFile),
    cert: readFileSync(tls.certFile),
    key: readFileSync(tls.keyFile),
  });
  return new Agent({ secureContext, keepAlive: false });
});

function httpsGetStatus(url: string, tls: TlsFiles): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: 'GET', timeout: probeTimeoutMs, agent: agentOf(tls) },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      }
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });
}

const credentialsOf = perFiles(clientCredentials);

async function grpcHealth(address: string, tls: TlsFiles): Promise<string> {
  // Every component certificate names localhost; an IP as TLS server name is not allowed.
  const client = new HealthClient(address, credentialsOf(tls), {
    'grpc.ssl_target_name_override': 'localhost',
  });
  try {
    return await client.check('', probeTimeoutMs);
  } finally {
    client.close();
  }
}
