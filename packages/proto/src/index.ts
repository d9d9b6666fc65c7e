// @orch/proto: the generated gRPC contracts of the suite, and nothing hand-written but this
// loader. Regenerate with `make proto`.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { storageDescriptor } from './generated/storage-descriptor.js';
export { apiDescriptor } from './generated/api-descriptor.js';
import type { ProtoGrpcType as StorageProtoGrpcType } from './generated/types/storage.js';

const loaderOptions: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

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
export type { GetListRequest, GetListRequest__Output } from './generated/types/orch/storage/v1/GetListRequest.js';
export type { GetListResponse__Output } from './generated/types/orch/storage/v1/GetListResponse.js';
export type { CreateRequest__Output } from './generated/types/orch/storage/v1/CreateRequest.js';
export type { UpdateRequest__Output } from './generated/types/orch/storage/v1/UpdateRequest.js';
export type { DeleteRequest__Output } from './generated/types/orch/storage/v1/DeleteRequest.js';
export type { HistoryRequest__Output } from './generated/types/orch/storage/v1/HistoryRequest.js';
