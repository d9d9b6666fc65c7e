// The gateway's check of the services that run its plugins: each service lists the plugins it
// serves (ListPlugins), and a gateway whose enabled plugins the list places in a service that
// does not serve them, or that serves plugins the list does not place there (a service of
// another version), stops with an error naming them rather than fail those writes one by one.
// The services may start after the gateway (the certificates service talks to the API through
// it), so the check asks until the service answers, while the gateway serves.
import { servedPluginsMismatch } from '@orch/apimachinery/admission';
import type { PluginName } from '@orch/apimachinery/admission';
import { StatusError } from '@orch/apimachinery/errors';

/** What the check needs of a client (AdmissionClient and CertificatesClient satisfy it). */
export interface PluginLister {
  listPlugins(): Promise<string[]>;
}

/** The services' plugins do not match what the gateway's enabled set places there. */
export class ServedPluginsMismatchError extends Error {
  override readonly name = 'ServedPluginsMismatchError';
}

const flags = {
  admission: '--admission-servers',
  certificates: '--certificates-servers',
} as const;

/**
 * Resolves once the service of `placement` has listed its plugins and they match `enabled`;
 * throws ServedPluginsMismatchError when they do not (or the service cannot list them). While
 * the service is unavailable, asks again every `retryMs`; resolves without checking when
 * `signal` aborts first.
 */
export async function checkServedPlugins(
  placement: 'admission' | 'certificates',
  client: PluginLister,
  enabled: readonly PluginName[],
  signal: AbortSignal,
  retryMs = 1000
): Promise<void> {
  const service = `the ${placement} service (${flags[placement]})`;
  for (;;) {
    if (signal.aborted) return;
    let served: string[];
    try {
      served = await client.listPlugins();
    } catch (err) {
      const retry = err instanceof StatusError && (err.code === 503 || err.code === 504);
      if (!retry) {
        throw new ServedPluginsMismatchError(
          `${service} could not list the admission plugins it serves: ${err instanceof Error ? err.message : String(err)}`
        );
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, retryMs);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
      continue;
    }
    const { missing, extra } = servedPluginsMismatch(placement, enabled, served);
    const problems: string[] = [];
    if (missing.length > 0) {
      problems.push(`it does not serve the enabled plugins ${missing.join(', ')}`);
    }
    if (extra.length > 0) {
      problems.push(
        `it serves ${extra.join(', ')}, which this gateway does not run there (another version?)`
      );
    }
    if (problems.length > 0) {
      throw new ServedPluginsMismatchError(
        `admission plugins do not match ${service}: ${problems.join('; ')} (it serves: ${served.join(', ') || 'none'})`
      );
    }
    return;
  }
}
