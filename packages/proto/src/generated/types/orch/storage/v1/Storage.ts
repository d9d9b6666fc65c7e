// Original file: proto/orch/storage/v1/storage.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CallRequest as _orch_storage_v1_CallRequest, CallRequest__Output as _orch_storage_v1_CallRequest__Output } from '../../../orch/storage/v1/CallRequest.js';
import type { CallResponse as _orch_storage_v1_CallResponse, CallResponse__Output as _orch_storage_v1_CallResponse__Output } from '../../../orch/storage/v1/CallResponse.js';
import type { CreateRequest as _orch_storage_v1_CreateRequest, CreateRequest__Output as _orch_storage_v1_CreateRequest__Output } from '../../../orch/storage/v1/CreateRequest.js';
import type { CreateResponse as _orch_storage_v1_CreateResponse, CreateResponse__Output as _orch_storage_v1_CreateResponse__Output } from '../../../orch/storage/v1/CreateResponse.js';
import type { CurrentRevisionRequest as _orch_storage_v1_CurrentRevisionRequest, CurrentRevisionRequest__Output as _orch_storage_v1_CurrentRevisionRequest__Output } from '../../../orch/storage/v1/CurrentRevisionRequest.js';
import type { CurrentRevisionResponse as _orch_storage_v1_CurrentRevisionResponse, CurrentRevisionResponse__Output as _orch_storage_v1_CurrentRevisionResponse__Output } from '../../../orch/storage/v1/CurrentRevisionResponse.js';
import type { DeleteRequest as _orch_storage_v1_DeleteRequest, DeleteRequest__Output as _orch_storage_v1_DeleteRequest__Output } from '../../../orch/storage/v1/DeleteRequest.js';
import type { DeleteResponse as _orch_storage_v1_DeleteResponse, DeleteResponse__Output as _orch_storage_v1_DeleteResponse__Output } from '../../../orch/storage/v1/DeleteResponse.js';
import type { Event as _orch_storage_v1_Event, Event__Output as _orch_storage_v1_Event__Output } from '../../../orch/storage/v1/Event.js';
import type { GetListRequest as _orch_storage_v1_GetListRequest, GetListRequest__Output as _orch_storage_v1_GetListRequest__Output } from '../../../orch/storage/v1/GetListRequest.js';
import type { GetListResponse as _orch_storage_v1_GetListResponse, GetListResponse__Output as _orch_storage_v1_GetListResponse__Output } from '../../../orch/storage/v1/GetListResponse.js';
import type { GetRequest as _orch_storage_v1_GetRequest, GetRequest__Output as _orch_storage_v1_GetRequest__Output } from '../../../orch/storage/v1/GetRequest.js';
import type { GetResponse as _orch_storage_v1_GetResponse, GetResponse__Output as _orch_storage_v1_GetResponse__Output } from '../../../orch/storage/v1/GetResponse.js';
import type { HistoryRequest as _orch_storage_v1_HistoryRequest, HistoryRequest__Output as _orch_storage_v1_HistoryRequest__Output } from '../../../orch/storage/v1/HistoryRequest.js';
import type { UpdateRequest as _orch_storage_v1_UpdateRequest, UpdateRequest__Output as _orch_storage_v1_UpdateRequest__Output } from '../../../orch/storage/v1/UpdateRequest.js';
import type { UpdateResponse as _orch_storage_v1_UpdateResponse, UpdateResponse__Output as _orch_storage_v1_UpdateResponse__Output } from '../../../orch/storage/v1/UpdateResponse.js';

export interface StorageClient extends grpc.Client {
  Calls(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CallRequest, _orch_storage_v1_CallResponse__Output>;
  Calls(options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CallRequest, _orch_storage_v1_CallResponse__Output>;
  calls(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CallRequest, _orch_storage_v1_CallResponse__Output>;
  calls(options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CallRequest, _orch_storage_v1_CallResponse__Output>;
  
  Create(argument: _orch_storage_v1_CreateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _orch_storage_v1_CreateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _orch_storage_v1_CreateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  Create(argument: _orch_storage_v1_CreateRequest, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _orch_storage_v1_CreateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _orch_storage_v1_CreateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _orch_storage_v1_CreateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  create(argument: _orch_storage_v1_CreateRequest, callback: grpc.requestCallback<_orch_storage_v1_CreateResponse__Output>): grpc.ClientUnaryCall;
  
  CurrentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  CurrentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  CurrentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  CurrentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  currentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  currentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  currentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  currentRevision(argument: _orch_storage_v1_CurrentRevisionRequest, callback: grpc.requestCallback<_orch_storage_v1_CurrentRevisionResponse__Output>): grpc.ClientUnaryCall;
  
  Delete(argument: _orch_storage_v1_DeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _orch_storage_v1_DeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _orch_storage_v1_DeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _orch_storage_v1_DeleteRequest, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _orch_storage_v1_DeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _orch_storage_v1_DeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _orch_storage_v1_DeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _orch_storage_v1_DeleteRequest, callback: grpc.requestCallback<_orch_storage_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  Get(argument: _orch_storage_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _orch_storage_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _orch_storage_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  Get(argument: _orch_storage_v1_GetRequest, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _orch_storage_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _orch_storage_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _orch_storage_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  get(argument: _orch_storage_v1_GetRequest, callback: grpc.requestCallback<_orch_storage_v1_GetResponse__Output>): grpc.ClientUnaryCall;
  
  GetList(argument: _orch_storage_v1_GetListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  GetList(argument: _orch_storage_v1_GetListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  GetList(argument: _orch_storage_v1_GetListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  GetList(argument: _orch_storage_v1_GetListRequest, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  getList(argument: _orch_storage_v1_GetListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  getList(argument: _orch_storage_v1_GetListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  getList(argument: _orch_storage_v1_GetListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  getList(argument: _orch_storage_v1_GetListRequest, callback: grpc.requestCallback<_orch_storage_v1_GetListResponse__Output>): grpc.ClientUnaryCall;
  
  History(argument: _orch_storage_v1_HistoryRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_orch_storage_v1_Event__Output>;
  History(argument: _orch_storage_v1_HistoryRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_orch_storage_v1_Event__Output>;
  history(argument: _orch_storage_v1_HistoryRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_orch_storage_v1_Event__Output>;
  history(argument: _orch_storage_v1_HistoryRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_orch_storage_v1_Event__Output>;
  
  Revisions(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionResponse__Output>;
  Revisions(options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionResponse__Output>;
  revisions(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionResponse__Output>;
  revisions(options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionResponse__Output>;
  
  Update(argument: _orch_storage_v1_UpdateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  Update(argument: _orch_storage_v1_UpdateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  Update(argument: _orch_storage_v1_UpdateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  Update(argument: _orch_storage_v1_UpdateRequest, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _orch_storage_v1_UpdateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _orch_storage_v1_UpdateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _orch_storage_v1_UpdateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  update(argument: _orch_storage_v1_UpdateRequest, callback: grpc.requestCallback<_orch_storage_v1_UpdateResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface StorageHandlers extends grpc.UntypedServiceImplementation {
  Calls: grpc.handleBidiStreamingCall<_orch_storage_v1_CallRequest__Output, _orch_storage_v1_CallResponse>;
  
  Create: grpc.handleUnaryCall<_orch_storage_v1_CreateRequest__Output, _orch_storage_v1_CreateResponse>;
  
  CurrentRevision: grpc.handleUnaryCall<_orch_storage_v1_CurrentRevisionRequest__Output, _orch_storage_v1_CurrentRevisionResponse>;
  
  Delete: grpc.handleUnaryCall<_orch_storage_v1_DeleteRequest__Output, _orch_storage_v1_DeleteResponse>;
  
  Get: grpc.handleUnaryCall<_orch_storage_v1_GetRequest__Output, _orch_storage_v1_GetResponse>;
  
  GetList: grpc.handleUnaryCall<_orch_storage_v1_GetListRequest__Output, _orch_storage_v1_GetListResponse>;
  
  History: grpc.handleServerStreamingCall<_orch_storage_v1_HistoryRequest__Output, _orch_storage_v1_Event>;
  
  Revisions: grpc.handleBidiStreamingCall<_orch_storage_v1_CurrentRevisionRequest__Output, _orch_storage_v1_CurrentRevisionResponse>;
  
  Update: grpc.handleUnaryCall<_orch_storage_v1_UpdateRequest__Output, _orch_storage_v1_UpdateResponse>;
  
}

export interface StorageDefinition extends grpc.ServiceDefinition {
  Calls: MethodDefinition<_orch_storage_v1_CallRequest, _orch_storage_v1_CallResponse, _orch_storage_v1_CallRequest__Output, _orch_storage_v1_CallResponse__Output>
  Create: MethodDefinition<_orch_storage_v1_CreateRequest, _orch_storage_v1_CreateResponse, _orch_storage_v1_CreateRequest__Output, _orch_storage_v1_CreateResponse__Output>
  CurrentRevision: MethodDefinition<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionResponse, _orch_storage_v1_CurrentRevisionRequest__Output, _orch_storage_v1_CurrentRevisionResponse__Output>
  Delete: MethodDefinition<_orch_storage_v1_DeleteRequest, _orch_storage_v1_DeleteResponse, _orch_storage_v1_DeleteRequest__Output, _orch_storage_v1_DeleteResponse__Output>
  Get: MethodDefinition<_orch_storage_v1_GetRequest, _orch_storage_v1_GetResponse, _orch_storage_v1_GetRequest__Output, _orch_storage_v1_GetResponse__Output>
  GetList: MethodDefinition<_orch_storage_v1_GetListRequest, _orch_storage_v1_GetListResponse, _orch_storage_v1_GetListRequest__Output, _orch_storage_v1_GetListResponse__Output>
  History: MethodDefinition<_orch_storage_v1_HistoryRequest, _orch_storage_v1_Event, _orch_storage_v1_HistoryRequest__Output, _orch_storage_v1_Event__Output>
  Revisions: MethodDefinition<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionResponse, _orch_storage_v1_CurrentRevisionRequest__Output, _orch_storage_v1_CurrentRevisionResponse__Output>
  Update: MethodDefinition<_orch_storage_v1_UpdateRequest, _orch_storage_v1_UpdateResponse, _orch_storage_v1_UpdateRequest__Output, _orch_storage_v1_UpdateResponse__Output>
}
