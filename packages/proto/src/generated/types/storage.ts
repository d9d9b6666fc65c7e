import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CallError as _orch_storage_v1_CallError, CallError__Output as _orch_storage_v1_CallError__Output } from './orch/storage/v1/CallError.js';
import type { CallRequest as _orch_storage_v1_CallRequest, CallRequest__Output as _orch_storage_v1_CallRequest__Output } from './orch/storage/v1/CallRequest.js';
import type { CallResponse as _orch_storage_v1_CallResponse, CallResponse__Output as _orch_storage_v1_CallResponse__Output } from './orch/storage/v1/CallResponse.js';
import type { CreateRequest as _orch_storage_v1_CreateRequest, CreateRequest__Output as _orch_storage_v1_CreateRequest__Output } from './orch/storage/v1/CreateRequest.js';
import type { CreateResponse as _orch_storage_v1_CreateResponse, CreateResponse__Output as _orch_storage_v1_CreateResponse__Output } from './orch/storage/v1/CreateResponse.js';
import type { CurrentRevisionRequest as _orch_storage_v1_CurrentRevisionRequest, CurrentRevisionRequest__Output as _orch_storage_v1_CurrentRevisionRequest__Output } from './orch/storage/v1/CurrentRevisionRequest.js';
import type { CurrentRevisionResponse as _orch_storage_v1_CurrentRevisionResponse, CurrentRevisionResponse__Output as _orch_storage_v1_CurrentRevisionResponse__Output } from './orch/storage/v1/CurrentRevisionResponse.js';
import type { DeleteRequest as _orch_storage_v1_DeleteRequest, DeleteRequest__Output as _orch_storage_v1_DeleteRequest__Output } from './orch/storage/v1/DeleteRequest.js';
import type { DeleteResponse as _orch_storage_v1_DeleteResponse, DeleteResponse__Output as _orch_storage_v1_DeleteResponse__Output } from './orch/storage/v1/DeleteResponse.js';
import type { Event as _orch_storage_v1_Event, Event__Output as _orch_storage_v1_Event__Output } from './orch/storage/v1/Event.js';
import type { GetListRequest as _orch_storage_v1_GetListRequest, GetListRequest__Output as _orch_storage_v1_GetListRequest__Output } from './orch/storage/v1/GetListRequest.js';
import type { GetListResponse as _orch_storage_v1_GetListResponse, GetListResponse__Output as _orch_storage_v1_GetListResponse__Output } from './orch/storage/v1/GetListResponse.js';
import type { GetRequest as _orch_storage_v1_GetRequest, GetRequest__Output as _orch_storage_v1_GetRequest__Output } from './orch/storage/v1/GetRequest.js';
import type { GetResponse as _orch_storage_v1_GetResponse, GetResponse__Output as _orch_storage_v1_GetResponse__Output } from './orch/storage/v1/GetResponse.js';
import type { HistoryRequest as _orch_storage_v1_HistoryRequest, HistoryRequest__Output as _orch_storage_v1_HistoryRequest__Output } from './orch/storage/v1/HistoryRequest.js';
import type { Preconditions as _orch_storage_v1_Preconditions, Preconditions__Output as _orch_storage_v1_Preconditions__Output } from './orch/storage/v1/Preconditions.js';
import type { StorageClient as _orch_storage_v1_StorageClient, StorageDefinition as _orch_storage_v1_StorageDefinition } from './orch/storage/v1/Storage.js';
import type { UpdateRequest as _orch_storage_v1_UpdateRequest, UpdateRequest__Output as _orch_storage_v1_UpdateRequest__Output } from './orch/storage/v1/UpdateRequest.js';
import type { UpdateResponse as _orch_storage_v1_UpdateResponse, UpdateResponse__Output as _orch_storage_v1_UpdateResponse__Output } from './orch/storage/v1/UpdateResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  orch: {
    storage: {
      v1: {
        CallError: MessageTypeDefinition<_orch_storage_v1_CallError, _orch_storage_v1_CallError__Output>
        CallRequest: MessageTypeDefinition<_orch_storage_v1_CallRequest, _orch_storage_v1_CallRequest__Output>
        CallResponse: MessageTypeDefinition<_orch_storage_v1_CallResponse, _orch_storage_v1_CallResponse__Output>
        Consistency: EnumTypeDefinition
        CreateRequest: MessageTypeDefinition<_orch_storage_v1_CreateRequest, _orch_storage_v1_CreateRequest__Output>
        CreateResponse: MessageTypeDefinition<_orch_storage_v1_CreateResponse, _orch_storage_v1_CreateResponse__Output>
        CurrentRevisionRequest: MessageTypeDefinition<_orch_storage_v1_CurrentRevisionRequest, _orch_storage_v1_CurrentRevisionRequest__Output>
        CurrentRevisionResponse: MessageTypeDefinition<_orch_storage_v1_CurrentRevisionResponse, _orch_storage_v1_CurrentRevisionResponse__Output>
        DeleteRequest: MessageTypeDefinition<_orch_storage_v1_DeleteRequest, _orch_storage_v1_DeleteRequest__Output>
        DeleteResponse: MessageTypeDefinition<_orch_storage_v1_DeleteResponse, _orch_storage_v1_DeleteResponse__Output>
        Event: MessageTypeDefinition<_orch_storage_v1_Event, _orch_storage_v1_Event__Output>
        EventType: EnumTypeDefinition
        GetListRequest: MessageTypeDefinition<_orch_storage_v1_GetListRequest, _orch_storage_v1_GetListRequest__Output>
        GetListResponse: MessageTypeDefinition<_orch_storage_v1_GetListResponse, _orch_storage_v1_GetListResponse__Output>
        GetRequest: MessageTypeDefinition<_orch_storage_v1_GetRequest, _orch_storage_v1_GetRequest__Output>
        GetResponse: MessageTypeDefinition<_orch_storage_v1_GetResponse, _orch_storage_v1_GetResponse__Output>
        HistoryRequest: MessageTypeDefinition<_orch_storage_v1_HistoryRequest, _orch_storage_v1_HistoryRequest__Output>
        Preconditions: MessageTypeDefinition<_orch_storage_v1_Preconditions, _orch_storage_v1_Preconditions__Output>
        Storage: SubtypeConstructor<typeof grpc.Client, _orch_storage_v1_StorageClient> & { service: _orch_storage_v1_StorageDefinition }
        UpdateRequest: MessageTypeDefinition<_orch_storage_v1_UpdateRequest, _orch_storage_v1_UpdateRequest__Output>
        UpdateResponse: MessageTypeDefinition<_orch_storage_v1_UpdateResponse, _orch_storage_v1_UpdateResponse__Output>
      }
    }
  }
}

