// The one wrapper of unary gRPC handlers of every service (storage, authorizer, and the services
// to come): readiness first, then the handler; a thrown or rejected error becomes a gRPC status
// carrying the Status as details (rebuilt as a StatusError by the client); the latency of every
// call is observed by name and gRPC code. A handler that answers synchronously is answered
// synchronously (the authorizer's decisions stay off the microtask queue).
import type { handleUnaryCall, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { toGrpcError } from '@orch/apimachinery/errors';
import type { Histogram } from 'prom-client';

export interface UnaryHandlerOptions<L extends string> {
  /** Latency histogram with the labels `label` (the call's name) and `code`. */
  latency: Histogram<L | 'code'>;
  /** Label naming the call: `operation` (storage), `rpc` (authorizer). */
  label: L;
  /** Undefined while the service answers; otherwise the error every call fails with. */
  notReady?: () => Error | undefined;
}

export type UnaryFn<Req, Res> = (request: Req) => Res | Promise<Res>;

export type Labels<L extends string> = Partial<Record<L | 'code', string>>;

/** A factory of wrapped handlers: `const unary = unaryHandlers({...}); unary('get', fn)`. */
export function unaryHandlers<L extends string>(opts: UnaryHandlerOptions<L>) {
  return <Req, Res>(name: string, fn: UnaryFn<Req, Res>): handleUnaryCall<Req, Res> =>
    (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
      const end = opts.latency.startTimer({ [opts.label]: name } as Labels<L>);
      const fail = (err: unknown): void => {
        const g = toGrpcError(err);
        end({ code: String(g.code) } as Labels<L>);
        callback(g);
      };
      const ok = (res: Res): void => {
        end({ code: 'OK' } as Labels<L>);
        callback(null, res);
      };
      let result: Res | Promise<Res>;
      try {
        const notReady = opts.notReady?.();
        if (notReady) throw notReady;
        result = fn(call.request);
      } catch (err) {
        fail(err);
        return;
      }
      if (result instanceof Promise) result.then(ok, fail);
      else ok(result);
    };
}
