// Status across gRPC: the Status JSON rides in trailing metadata under `orch-status-bin`
// beside the closest gRPC code, and is rebuilt as a StatusError on the other side.
import { Metadata, status as GrpcCode } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { isStatus } from './status.js';
import {
  StatusError,
  newInternalError,
  newServiceUnavailable,
  newTimeout,
} from './status-error.js';

const statusKey = 'orch-status-bin';

function grpcCodeFor(httpCode: number): GrpcCode {
  switch (httpCode) {
    case 400:
    case 422:
      return GrpcCode.INVALID_ARGUMENT;
    case 401:
      return GrpcCode.UNAUTHENTICATED;
    case 403:
      return GrpcCode.PERMISSION_DENIED;
    case 404:
      return GrpcCode.NOT_FOUND;
    case 409:
      return GrpcCode.ABORTED;
    case 410:
      return GrpcCode.OUT_OF_RANGE;
    case 413:
      return GrpcCode.RESOURCE_EXHAUSTED;
    case 429:
      return GrpcCode.RESOURCE_EXHAUSTED;
    case 503:
      return GrpcCode.UNAVAILABLE;
    case 504:
      return GrpcCode.DEADLINE_EXCEEDED;
    default:
      return GrpcCode.INTERNAL;
  }
}

/** An error as a gRPC service error, with its Status attached. */
export function toGrpcError(err: unknown): Partial<ServiceError> {
  const e = toCallError(err);
  const metadata = new Metadata();
  metadata.set(statusKey, e.status);
  return { code: e.code, details: e.message, metadata };
}

/**
 * An error as the answer to one call on a stream of calls (storage's Calls): the code, message
 * and Status JSON that a unary call's status and trailer would carry.
 */
export function toCallError(err: unknown): { code: number; message: string; status: Buffer } {
  const se = err instanceof StatusError ? err : newInternalError(err);
  return {
    code: grpcCodeFor(se.code),
    message: se.message,
    status: Buffer.from(JSON.stringify(se.status)),
  };
}

/** The failed answer of a call on a stream of calls as a StatusError, as fromGrpcError reads a unary one. */
export function fromCallError(
  e: { code: number; message: string; status?: Uint8Array | null },
  what: string
): StatusError {
  const metadata = new Metadata();
  if (e.status && e.status.length > 0) metadata.set(statusKey, Buffer.from(e.status));
  return fromGrpcError({ code: e.code, details: e.message, metadata }, what);
}

/** A gRPC client error as a StatusError. */
export function fromGrpcError(err: unknown, what: string): StatusError {
  const e = err as Partial<ServiceError>;
  const raw = e.metadata?.get(statusKey)[0];
  if (raw !== undefined) {
    try {
      const parsed: unknown = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw);
      if (isStatus(parsed)) return new StatusError(parsed);
    } catch {
      // fall through to the code mapping
    }
  }
  if (e.code === GrpcCode.DEADLINE_EXCEEDED) {
    return newTimeout(`${what}: the server did not answer in time`, 1);
  }
  if (e.code === GrpcCode.UNAVAILABLE) {
    return newServiceUnavailable(`${what} is unavailable: ${e.details ?? 'no connection'}`);
  }
  return newInternalError(`${what}: ${e.details ?? String(err)}`);
}
