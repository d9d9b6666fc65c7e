// @orch/proto: the generated gRPC contracts of the suite, and nothing hand-written but this
// loader. Regenerate with `make proto`.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { storageDescriptor } from './generated/storage-descriptor.js';
export { apiDescriptor } from './generated/api-descriptor.js';
import type { ProtoGrpcType as StorageProtoGrpcType } from './generated/types/storage.js';
import { authorizerDescriptor } from './generated/authorizer-descriptor.js';
import type { ProtoGrpcType as AuthorizerProtoGrpcType } from './generated/types/authorizer.js';
import { admissionDescriptor } from './generated/admission-descriptor.js';
import type { ProtoGrpcType as AdmissionProtoGrpcType } from './generated/types/admission.js';
import { certificatesDescriptor } from './generated/certificates-descriptor.js';
import type { ProtoGrpcType as CertificatesProtoGrpcType } from './generated/types/certificates.js';

const loaderOptions: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

/**
 * Channel options every client of the suite uses: channelz (grpc-js's call-by-call bookkeeping
 * for its introspection service, which no service of the suite serves) is off, which takes
 * several allocations off every call. The reconnect backoff stops growing at 3 s (grpc-js's
 * default grows to 120 s): a client that lived through a long outage of its server (storage,
 * the authorizer, admission, etcd) finds it again within seconds of its return, as the
 * readiness bound of issue 12 asks (10 s), instead of up to two minutes later.
 */
export const channelOptions = {
  'grpc.enable_channelz': 0,
  'grpc.initial_reconnect_backoff_ms': 500,
  'grpc.max_reconnect_backoff_ms': 3000,
} as const;

/** The orch.storage.v1 package, ready for grpc.Server.addService and client construction. */
export const storageProto = grpc.loadPackageDefinition(
  protoLoader.fromJSON(storageDescriptor as unknown as protobufJson, loaderOptions)
) as unknown as StorageProtoGrpcType;

type protobufJson = Parameters<typeof protoLoader.fromJSON>[0];

export type { StorageClient, StorageHandlers } from './generated/types/orch/storage/v1/Storage.js';
export type { Consistency } from './generated/types/orch/storage/v1/Consistency.js';
export type { EventType } from './generated/types/orch/storage/v1/EventType.js';
export type { Event, Event__Output } from './generated/types/orch/storage/v1/Event.js';
export type { GetRequest__Output } from './generated/types/orch/storage/v1/GetRequest.js';
export type { GetResponse__Output } from './generated/types/orch/storage/v1/GetResponse.js';
export type {
  GetListRequest,
  GetListRequest__Output,
} from './generated/types/orch/storage/v1/GetListRequest.js';
export type {
  GetListResponse,
  GetListResponse__Output,
} from './generated/types/orch/storage/v1/GetListResponse.js';
export type {
  Preconditions,
  Preconditions__Output,
} from './generated/types/orch/storage/v1/Preconditions.js';
export type { CreateRequest__Output } from './generated/types/orch/storage/v1/CreateRequest.js';
export type { UpdateRequest__Output } from './generated/types/orch/storage/v1/UpdateRequest.js';
export type { DeleteRequest__Output } from './generated/types/orch/storage/v1/DeleteRequest.js';
export type { HistoryRequest__Output } from './generated/types/orch/storage/v1/HistoryRequest.js';

/** The orch.authz.v1 package (the authorizer service). */
export const authorizerProto = grpc.loadPackageDefinition(
  protoLoader.fromJSON(authorizerDescriptor as unknown as protobufJson, loaderOptions)
) as unknown as AuthorizerProtoGrpcType;

export type {
  AuthorizerClient,
  AuthorizerHandlers,
} from './generated/types/orch/authz/v1/Authorizer.js';
export type {
  AuthorizeRequest,
  AuthorizeRequest__Output,
} from './generated/types/orch/authz/v1/AuthorizeRequest.js';
export type {
  AuthorizeResponse,
  AuthorizeResponse__Output,
} from './generated/types/orch/authz/v1/AuthorizeResponse.js';
export type {
  RulesReviewRequest,
  RulesReviewRequest__Output,
} from './generated/types/orch/authz/v1/RulesReviewRequest.js';
export type {
  RulesReviewResponse,
  RulesReviewResponse__Output,
} from './generated/types/orch/authz/v1/RulesReviewResponse.js';
export type {
  ResourceRule,
  ResourceRule__Output,
} from './generated/types/orch/authz/v1/ResourceRule.js';
export type {
  NonResourceRule,
  NonResourceRule__Output,
} from './generated/types/orch/authz/v1/NonResourceRule.js';

/** The orch.admission.v1 package (the admission service). */
export const admissionProto = grpc.loadPackageDefinition(
  protoLoader.fromJSON(admissionDescriptor as unknown as protobufJson, loaderOptions)
) as unknown as AdmissionProtoGrpcType;

export type {
  AdmissionClient,
  AdmissionHandlers,
} from './generated/types/orch/admission/v1/Admission.js';
export type {
  AdmitRequest,
  AdmitRequest__Output,
} from './generated/types/orch/admission/v1/AdmitRequest.js';
export type {
  AdmitResponse,
  AdmitResponse__Output,
} from './generated/types/orch/admission/v1/AdmitResponse.js';
export type {
  ListPluginsRequest,
  ListPluginsRequest__Output,
} from './generated/types/orch/admission/v1/ListPluginsRequest.js';
export type {
  ListPluginsResponse,
  ListPluginsResponse__Output,
} from './generated/types/orch/admission/v1/ListPluginsResponse.js';
export type { Phase as AdmissionPhase } from './generated/types/orch/admission/v1/Phase.js';

/** The orch.certificates.v1 package (the certificates service; its messages are admission's). */
export const certificatesProto = grpc.loadPackageDefinition(
  protoLoader.fromJSON(certificatesDescriptor as unknown as protobufJson, loaderOptions)
) as unknown as CertificatesProtoGrpcType;

export type {
  CertificatesClient,
  CertificatesHandlers,
} from './generated/types/orch/certificates/v1/Certificates.js';
