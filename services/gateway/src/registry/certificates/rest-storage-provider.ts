// The certificates group's REST storage (k8s pkg/registry/certificates/rest/
// storage_certificates.go): CertificateSigningRequests with /status and /approval, each the
// kind's Store under a strategy of its own.
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { StrategyRest } from '../strategy-rest.js';
import {
  certificateSigningRequestApprovalStrategy,
  certificateSigningRequestStatusStrategy,
  certificateSigningRequestStrategy,
} from './certificatesigningrequests/strategy.js';

export const certificatesProvider: RestStorageProvider = {
  groupName: 'certificates.orch.io',
  resources: {
    certificatesigningrequests: {
      strategy: certificateSigningRequestStrategy,
      subresources: {
        status: (store) => new StatusRest(store, certificateSigningRequestStatusStrategy),
        approval: (store) => new StrategyRest(store, certificateSigningRequestApprovalStrategy),
      },
    },
  },
};
