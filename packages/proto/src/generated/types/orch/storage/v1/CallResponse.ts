// Original file: proto/orch/storage/v1/storage.proto

import type { GetResponse as _orch_storage_v1_GetResponse, GetResponse__Output as _orch_storage_v1_GetResponse__Output } from '../../../orch/storage/v1/GetResponse.js';
import type { CreateResponse as _orch_storage_v1_CreateResponse, CreateResponse__Output as _orch_storage_v1_CreateResponse__Output } from '../../../orch/storage/v1/CreateResponse.js';
import type { UpdateResponse as _orch_storage_v1_UpdateResponse, UpdateResponse__Output as _orch_storage_v1_UpdateResponse__Output } from '../../../orch/storage/v1/UpdateResponse.js';
import type { DeleteResponse as _orch_storage_v1_DeleteResponse, DeleteResponse__Output as _orch_storage_v1_DeleteResponse__Output } from '../../../orch/storage/v1/DeleteResponse.js';
import type { CurrentRevisionResponse as _orch_storage_v1_CurrentRevisionResponse, CurrentRevisionResponse__Output as _orch_storage_v1_CurrentRevisionResponse__Output } from '../../../orch/storage/v1/CurrentRevisionResponse.js';
import type { CallError as _orch_storage_v1_CallError, CallError__Output as _orch_storage_v1_CallError__Output } from '../../../orch/storage/v1/CallError.js';
import type { Long } from '@grpc/proto-loader';

export interface CallResponse {
  'id'?: (number | string | Long);
  'get'?: (_orch_storage_v1_GetResponse | null);
  'create'?: (_orch_storage_v1_CreateResponse | null);
  'update'?: (_orch_storage_v1_UpdateResponse | null);
  'delete'?: (_orch_storage_v1_DeleteResponse | null);
  'current_revision'?: (_orch_storage_v1_CurrentRevisionResponse | null);
  'error'?: (_orch_storage_v1_CallError | null);
  'result'?: "get"|"create"|"update"|"delete"|"current_revision"|"error";
}

export interface CallResponse__Output {
  'id': (number);
  'get'?: (_orch_storage_v1_GetResponse__Output | null);
  'create'?: (_orch_storage_v1_CreateResponse__Output | null);
  'update'?: (_orch_storage_v1_UpdateResponse__Output | null);
  'delete'?: (_orch_storage_v1_DeleteResponse__Output | null);
  'current_revision'?: (_orch_storage_v1_CurrentRevisionResponse__Output | null);
  'error'?: (_orch_storage_v1_CallError__Output | null);
  'result'?: "get"|"create"|"update"|"delete"|"current_revision"|"error";
}
