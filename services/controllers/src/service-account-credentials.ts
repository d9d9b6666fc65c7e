// A controller's own identity (k8s kube-controller-manager --use-service-account-credentials,
// clientbuilder.SAControllerClientBuilder): the ServiceAccount `<namespace>/<name>` is made if
// missing, a token is requested for it through the TokenRequest subresource, and the
// controller's client sends that token; it is requested again at 80% of its life.
import { isAlreadyExists } from '@orch/apimachinery/errors';
import { RestClient } from '@orch/apimachinery/client';
import type { RestConfig } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';

const expirationSeconds = 3600;

export class ServiceAccountCredentials {
  readonly client: RestClient;
  #token: string;
  #timer: NodeJS.Timeout | undefined;
  readonly #root: RestClient;
  readonly #path: string;
  readonly #log: Logger;

  private constructor(
    root: RestClient,
    config: RestConfig,
    path: string,
    token: string,
    log: Logger
  ) {
    this.#root = root;
    this.#path = path;
    this.#token = token;
    this.#log = log;
    this.client = new RestClient(config, { maxSockets: Infinity, bearerToken: () => this.#token });
  }

  /** The ServiceAccount ensured, its first token in hand, the refresh scheduled. */
  static async create(
    root: RestClient,
    config: RestConfig,
    namespace: string,
    name: string,
    log: Logger
  ): Promise<ServiceAccountCredentials> {
    try {
      await root.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name },
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    const path = `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`;
    const token = await requestToken(root, path);
    const creds = new ServiceAccountCredentials(root, config, path, token, log);
    creds.#schedule(expirationSeconds * 800);
    return creds;
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      requestToken(this.#root, this.#path)
        .then((t) => {
          this.#token = t;
          this.#schedule(expirationSeconds * 800);
        })
        .catch((err: unknown) => {
          this.#log.warn('service account token refresh failed; retrying', {
            path: this.#path,
            err,
          });
          this.#schedule(10_000);
        });
    }, ms);
    this.#timer.unref();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.client.close();
  }
}

async function requestToken(root: RestClient, path: string): Promise<string> {
  const r = await root.request('POST', path, {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds },
  });
  return (r['status'] as { token: string }).token;
}
