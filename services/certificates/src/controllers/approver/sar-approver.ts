// The approving controller (upstream pkg/controller/certificates/approver/sarapprove.go): a
// pending `orch.io/apiserver-client-node-agent` request that is a node client request is
// approved (reason AutoApproved) when its requester passes a SubjectAccessReview for `create`
// on `certificatesigningrequests/selfnodeclient` (a node renewing its own: requester name equal
// to the subject CN) or `certificatesigningrequests/nodeclient` (a bootstrapper creating one).
import type { RestClient } from '@orch/apimachinery/client';
import { isNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import {
  approvalOf,
  clientNodeAgentSignerName,
  csrGroup,
  csrPath,
  isIssued,
  parseCsr,
} from '../csr.js';
import type { CertificateSigningRequest } from '../csr.js';
import { QueueController } from '../queue-controller.js';
import { isNodeClientRequest, requestFacts } from '../signer/signer-rules.js';
import type { RequestFacts } from '../signer/signer-rules.js';

interface Recognizer {
  recognize(csr: CertificateSigningRequest, facts: RequestFacts): boolean;
  subresource: string;
  successMessage: string;
}

function isNodeClientCert(csr: CertificateSigningRequest, facts: RequestFacts): boolean {
  return (
    csr.spec.signerName === clientNodeAgentSignerName &&
    isNodeClientRequest(facts, csr.spec.usages ?? [])
  );
}

/** Upstream's recognizers, in its order (self first). */
export const recognizers: readonly Recognizer[] = [
  {
    recognize: (csr, facts) =>
      csr.spec.username === facts.commonName && isNodeClientCert(csr, facts),
    subresource: 'selfnodeclient',
    successMessage: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  {
    recognize: isNodeClientCert,
    subresource: 'nodeclient',
    successMessage: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  },
];

export interface SarApproverOptions {
  client: RestClient;
  log: Logger;
}

export class SarApprover {
  readonly controller: QueueController;
  readonly #client: RestClient;
  readonly #log: Logger;

  constructor(o: SarApproverOptions) {
    this.#client = o.client;
    this.#log = o.log.child({ controller: 'csrapproving' });
    this.controller = new QueueController({
      name: 'csrapproving',
      client: o.client,
      path: csrPath,
      log: o.log,
      // The informer hands the decoded JSON of stored CSRs.
      filter: (obj) =>
        (obj as CertificateSigningRequest).spec?.signerName === clientNodeAgentSignerName,
      sync: (_key, obj) => this.handle(obj as CertificateSigningRequest | undefined),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  /** One pass over a request; what it did, for tests and logs. */
  async handle(
    csr: CertificateSigningRequest | undefined
  ): Promise<'ignored' | 'approved' | 'not-authorized'> {
    if (!csr || isIssued(csr)) return 'ignored';
    const { approved, denied } = approvalOf(csr);
    if (approved || denied) return 'ignored';
    let facts: RequestFacts;
    try {
      facts = requestFacts(parseCsr(csr));
    } catch (err) {
      throw new Error(`unable to parse csr "${csr.metadata.name}": ${String(err)}`);
    }
    const tried: string[] = [];
    for (const r of recognizers) {
      if (!r.recognize(csr, facts)) continue;
      tried.push(r.subresource);
      if (!(await this.#authorize(csr, r.subresource))) continue;
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      try {
        await this.#client.request(
          'PUT',
          `${csrPath}/${encodeURIComponent(csr.metadata.name)}/approval`,
          {
            ...csr,
            status: {
              ...csr.status,
              conditions: [
                ...(csr.status?.conditions ?? []),
                {
                  type: 'Approved',
                  status: 'True',
                  reason: 'AutoApproved',
                  message: r.successMessage,
                  lastUpdateTime: now,
                  lastTransitionTime: now,
                },
              ],
            },
          }
        );
      } catch (err) {
        if (isNotFound(err)) return 'ignored';
        throw new Error(`error updating approval for csr: ${String(err)}`);
      }
      this.#log.info('approved', { csr: csr.metadata.name, as: r.subresource });
      return 'approved';
    }
    if (tried.length) {
      // upstream's IgnorableError: logged, not retried
      this.#log.info(
        `recognized csr "${csr.metadata.name}" as [${tried.join(' ')}] but subject access review was not approved`
      );
      return 'not-authorized';
    }
    return 'ignored';
  }

  async #authorize(csr: CertificateSigningRequest, subresource: string): Promise<boolean> {
    const review = await this.#client.request(
      'POST',
      '/apis/authorization.orch.io/v1/subjectaccessreviews',
      {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: csr.spec.username ?? '',
          uid: csr.spec.uid ?? '',
          groups: csr.spec.groups ?? [],
          extra: csr.spec.extra ?? {},
          resourceAttributes: {
            group: csrGroup,
            version: '*',
            resource: 'certificatesigningrequests',
            subresource,
            verb: 'create',
          },
        },
      }
    );
    return (review['status'] as { allowed?: boolean } | undefined)?.allowed === true;
  }
}
