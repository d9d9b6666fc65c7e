// The bench's HTTPS client to the gateways: one keep-alive pool for requests and
// one without body timeout for watches.
import { Agent, request } from 'undici';

export interface ClientTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/** A gateway of the bench's suite. */
export interface Gateway {
  name: string;
  url: string;
  pid: number;
}

export class BenchClient {
  readonly agent: Agent;
  readonly watchAgent: Agent;

  /** `tls`: the client's TLS material, also handed to clients on other threads. */
  constructor(readonly tls: ClientTls) {
    this.agent = new Agent({ connect: tls, connections: 128, keepAliveTimeout: 60_000 });
    this.watchAgent = new Agent({
      connect: tls,
      keepAliveTimeout: 60_000,
      headersTimeout: 30_000,
      bodyTimeout: 0,
    });
  }

  call = async (
    url: string,
    method: string,
    body?: unknown
  ): Promise<{ status: number; text: string }> => {
    const res = await request(url, {
      method: method as 'GET',
      dispatcher: this.agent,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };

  /** The body of a call answered with one of `okStatus`; throws otherwise. */
  mustCall = async (
    url: string,
    method: string,
    body?: unknown,
    okStatus = [200, 201]
  ): Promise<string> => {
    const r = await this.call(url, method, body);
    if (!okStatus.includes(r.status)) {
      throw new Error(`${method} ${url}: ${r.status} ${r.text.slice(0, 300)}`);
    }
    return r.text;
  };

  createNamespace = async (gw: Gateway, name: string): Promise<void> => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
    await this.mustCall(`${gw.url}/api/v1/namespaces`, 'POST', ns, [200, 201, 409]);
  };

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
    await this.watchAgent.destroy().catch(() => undefined);
  }
}
