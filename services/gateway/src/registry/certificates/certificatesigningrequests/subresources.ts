// The REST objects of certificatesigningrequests/status and /approval (upstream's
// pkg/registry/certificates/certificates/storage: StatusREST and ApprovalREST), each the kind's
// Store under its own strategy; undefined for any other kind.
import { StatusRest } from '../../status-rest.js';
import { StrategyRest } from '../../strategy-rest.js';
import type { Storage } from '../../rest.js';
import type { Store } from '../../store.js';
import {
  certificateSigningRequestApprovalStrategy,
  certificateSigningRequestStatusStrategy,
} from './strategy.js';

export const certificatesGroup = 'certificates.orch.io';

const isCsr = (store: Store): boolean =>
  store.def.group === certificatesGroup && store.def.resource === 'certificatesigningrequests';

/** /status of a CSR, or undefined for another kind. */
export function csrStatusRest(store: Store): Storage | undefined {
  return isCsr(store) ? new StatusRest(store, certificateSigningRequestStatusStrategy) : undefined;
}

/** /approval of a CSR, or undefined for another kind. */
export function csrApprovalRest(store: Store): Storage | undefined {
  return isCsr(store)
    ? new StrategyRest(store, certificateSigningRequestApprovalStrategy)
    : undefined;
}
