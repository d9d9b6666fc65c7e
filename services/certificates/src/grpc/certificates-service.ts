// The orch.certificates.v1.Certificates gRPC service: the gateway's call on every write of a
// CertificateSigningRequest, in the validating phase of its admission chain. A CREATE of the
// main resource has spec.request parsed and its signature checked (upstream's validateCSR; a
// 422 naming spec.request), then the named plugins run in the order given and the first denial
// ends the call (k8s chainAdmissionHandler). The object is never changed.
import { Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type {
  AdmitRequest__Output,
  AdmitResponse,
  CertificatesHandlers,
  ListPluginsResponse,
} from '@orch/proto';
import {
  StatusError,
  newBadRequest,
  newInternalError,
  newInvalid,
  newServiceUnavailable,
} from '@orch/apimachinery/errors';
import {
  AdmissionMappingError,
  admitCallFromProto,
  admitResultToProto,
} from '@orch/apimachinery/grpc';
import type { AdmissionCallRequest } from '@orch/apimachinery/grpc';
import { unaryHandlers } from '@orch/component-base/grpc-server';
import type { Logger } from '@orch/component-base/logs';
import { isCsrWrite } from '../admission/interfaces.js';
import type { CertificatePlugin, CertificatePluginName } from '../admission/interfaces.js';
import { checkRequest } from '../request/check-request.js';

export interface CertificatesMetrics {
  /** Latency of the gRPC call, by rpc and gRPC code. */
  latency: Histogram<'rpc' | 'code'>;
  /** Decisions by plugin (`request` for the request check) and whether it refused. */
  decisions: Histogram<'name' | 'rejected'>;
}

export function newCertificatesMetrics(registry: Registry): CertificatesMetrics {
  return {
    latency: new Histogram({
      name: 'orch_certificates_request_duration_seconds',
      help: 'Certificates service request latency by RPC and gRPC code.',
      labelNames: ['rpc', 'code'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 1, 10],
      registers: [registry],
    }),
    decisions: new Histogram({
      name: 'orch_certificates_admission_duration_seconds',
      help: 'Latency of each check of a CertificateSigningRequest write (the request check and each plugin), by whether it refused.',
      labelNames: ['name', 'rejected'] as const,
      buckets: [0.0005, 0.001, 0.005, 0.025, 0.1, 0.5, 2.5],
      registers: [registry],
    }),
  };
}

export interface CertificatesServiceOptions {
  plugins: ReadonlyMap<CertificatePluginName, CertificatePlugin>;
  metrics: CertificatesMetrics;
  log: Logger;
  /** False until the service answers; calls then fail as unavailable. */
  ready?: () => boolean;
}

/** The request check of a CREATE: a 422 naming spec.request when it fails. */
export async function validateRequestOnCreate(req: AdmissionCallRequest): Promise<void> {
  if (req.operation !== 'CREATE' || req.subResource !== '' || !isCsrWrite(req)) return;
  const spec = (req.object as { spec?: { request?: unknown } } | undefined)?.spec;
  const result = await checkRequest(spec?.request);
  if ('error' in result) {
    const name = req.name || String(req.object?.metadata?.name ?? '');
    throw newInvalid(
      { group: req.kind.group, kind: req.kind.kind || 'CertificateSigningRequest' },
      name,
      [result.error]
    );
  }
}

/** One call: the request check, then each named plugin in order. */
export async function admitCertificates(
  req: AdmissionCallRequest,
  names: readonly string[],
  o: CertificatesServiceOptions
): Promise<void> {
  const timed = async (name: string, fn: () => Promise<void>): Promise<void> => {
    const end = o.metrics.decisions.startTimer({ name });
    try {
      await fn();
      end({ rejected: 'false' });
    } catch (err) {
      end({ rejected: 'true' });
      throw err;
    }
  };
  await timed('request', () => validateRequestOnCreate(req));
  for (const name of names) {
    const plugin = o.plugins.get(name as CertificatePluginName);
    if (!plugin)
      throw newBadRequest(`certificate admission plugin ${JSON.stringify(name)} is unknown`);
    await timed(name, () => plugin.validate(req));
  }
}

export function certificatesService(o: CertificatesServiceOptions): CertificatesHandlers {
  const unary = unaryHandlers({
    latency: o.metrics.latency,
    label: 'rpc',
    notReady: () =>
      o.ready && !o.ready()
        ? newServiceUnavailable('the certificates service is starting')
        : undefined,
  });
  return {
    ListPlugins: unary('ListPlugins', (): ListPluginsResponse => ({
      plugins: [...o.plugins.keys()],
    })),
    Admit: unary('Admit', async (m: AdmitRequest__Output): Promise<AdmitResponse> => {
      let call;
      try {
        call = admitCallFromProto(m);
      } catch (err) {
        if (err instanceof AdmissionMappingError) throw newBadRequest(err.message);
        throw err;
      }
      const unknown = call.plugins.filter((n) => !o.plugins.has(n as CertificatePluginName));
      if (unknown.length > 0) {
        throw newBadRequest(
          `certificate admission plugins ${unknown.join(', ')} are unknown (known: ${[...o.plugins.keys()].join(', ')})`
        );
      }
      try {
        await admitCertificates(call.request, call.plugins, o);
      } catch (err) {
        if (err instanceof StatusError) {
          return admitResultToProto({
            allowed: false,
            status: err.status,
            object: undefined,
            warnings: [],
            auditAnnotations: {},
          });
        }
        o.log.error('certificate admission failed', { err: String(err) });
        throw newInternalError(err);
      }
      return admitResultToProto({
        allowed: true,
        status: undefined,
        object: undefined,
        warnings: [],
        auditAnnotations: {},
      });
    }),
  };
}
