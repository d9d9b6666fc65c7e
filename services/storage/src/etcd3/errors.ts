// Translating etcd failures into Status errors (k8s storeerr.Interpret*Error).
import {
  newInternalError,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServiceUnavailable,
} from '@orch/apimachinery/errors';
import { StatusError } from '@orch/apimachinery/errors';

export function isCompactedError(err: unknown): boolean {
  return err instanceof Error && /compacted/.test(err.message);
}

export function interpretEtcdError(err: unknown, what: string): StatusError {
  if (err instanceof StatusError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/compacted/.test(message)) {
    return newResourceExpired(`The resourceVersion for the provided ${what} is too old.`);
  }
  if (/request is too large|message larger than max|exceeds/i.test(message)) {
    return newRequestEntityTooLarge(`the object is too large to be stored (${message})`);
  }
  if (/unavailable|no connection|deadline|ECONNREFUSED|timed out|leader/i.test(message)) {
    return newServiceUnavailable(`etcd is unavailable: ${message}`);
  }
  return newInternalError(message);
}
