// Original file: proto/orch/storage/v1/storage.proto

import type { GetRequest as _orch_storage_v1_GetRequest, GetRequest__Output as _orch_storage_v1_GetRequest__Output } from '../../../orch/storage/v1/GetRequest.js';
import type { CreateRequest as _orch_storage_v1_CreateRequest, CreateRequest__Output as _orch_storage_v1_CreateRequest__Output } from '../../../orch/storage/v1/CreateRequest.js';
import type { UpdateRequest as _orch_storage_v1_UpdateRequest, UpdateRequest__Output as _orch_storage_v1_UpdateRequest__Output } from '../../../orch/storage/v1/UpdateRequest.js';
import type { DeleteRequest as _orch_storage_v1_DeleteRequest, DeleteRequest__Output as _orch_storage_v1_DeleteRequest__Output } from '../../../orch/storage/v1/DeleteRequest.js';
import type { CurrentRevisionRequest as _orch_storage_v1_CurrentRevisionRequest, CurrentRevisionRequest__Output as _orch_storage_v1_CurrentRevisionRequest__Output } from '../../../orch/storage/v1/CurrentRevisionRequest.js';
import type { Long } from '@grpc/proto-loader';

export interface CallRequest {
  'id'?: (number | string | Long);
  'get'?: (_orch_storage_v1_GetRequest | null);
  'create'?: (_orch_storage_v1_CreateRequest | null);
  'update'?: (_orch_storage_v1_UpdateRequest | null);
  'delete'?: (_orch_storage_v1_DeleteRequest | null);
  'current_revision'?: (_orch_storage_v1_CurrentRevisionRequest | null);
  'call'?: "get"|"create"|"update"|"delete"|"current_revision";
}

export interface CallRequest__Output {
  'id': (number);
  'get'?: (_orch_storage_v1_GetRequest__Output | null);
  'create'?: (_orch_storage_v1_CreateRequest__Output | null);
  'update'?: (_orch_storage_v1_UpdateRequest__Output | null);
  'delete'?: (_orch_storage_v1_DeleteRequest__Output | null);
  'current_revision'?: (_orch_storage_v1_CurrentRevisionRequest__Output | null);
  'call'?: "get"|"create"|"update"|"delete"|"current_revision";
}
