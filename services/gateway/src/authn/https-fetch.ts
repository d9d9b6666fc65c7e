// A minimal fetch over node:https with a given CA (for --oidc-ca-file): openid-client and jose
// accept such a function for discovery and JWKS requests.
import { request } from 'node:https';

export function httpsFetch(ca: Buffer | undefined, timeoutMs = 10_000) {
  return (
    url: string,
    options: {
      method?: string;
      headers?: Headers | Record<string, string>;
      body?: unknown;
      signal?: AbortSignal | undefined;
    }
  ): Promise<Response> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).forEach(
        (v, k) => (headers[k] = v)
      );
      const req = request(
        new URL(url),
        {
          method: options.method ?? 'GET',
          headers,
          timeout: timeoutMs,
          ...(ca ? { ca } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
            resolve(
              new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: h })
            );
          });
        }
      );
      req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
      req.on('error', reject);
      const body = options.body;
      req.end(
        typeof body === 'string' || body instanceof Uint8Array
          ? body
          : body instanceof URLSearchParams
            ? body.toString()
            : undefined
      );
    });
}
