// Original file: proto/orch/admission/v1/admission.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdmitCallRequest as _orch_admission_v1_AdmitCallRequest, AdmitCallRequest__Output as _orch_admission_v1_AdmitCallRequest__Output } from '../../../orch/admission/v1/AdmitCallRequest.js';
import type { AdmitCallResponse as _orch_admission_v1_AdmitCallResponse, AdmitCallResponse__Output as _orch_admission_v1_AdmitCallResponse__Output } from '../../../orch/admission/v1/AdmitCallResponse.js';
import type { AdmitRequest as _orch_admission_v1_AdmitRequest, AdmitRequest__Output as _orch_admission_v1_AdmitRequest__Output } from '../../../orch/admission/v1/AdmitRequest.js';
import type { AdmitResponse as _orch_admission_v1_AdmitResponse, AdmitResponse__Output as _orch_admission_v1_AdmitResponse__Output } from '../../../orch/admission/v1/AdmitResponse.js';
import type { ListPluginsRequest as _orch_admission_v1_ListPluginsRequest, ListPluginsRequest__Output as _orch_admission_v1_ListPluginsRequest__Output } from '../../../orch/admission/v1/ListPluginsRequest.js';
import type { ListPluginsResponse as _orch_admission_v1_ListPluginsResponse, ListPluginsResponse__Output as _orch_admission_v1_ListPluginsResponse__Output } from '../../../orch/admission/v1/ListPluginsResponse.js';

export interface AdmissionClient extends grpc.Client {
  Admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _orch_admission_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _orch_admission_v1_AdmitRequest, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  
  AdmitCalls(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_admission_v1_AdmitCallRequest, _orch_admission_v1_AdmitCallResponse__Output>;
  AdmitCalls(options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_admission_v1_AdmitCallRequest, _orch_admission_v1_AdmitCallResponse__Output>;
  admitCalls(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_admission_v1_AdmitCallRequest, _orch_admission_v1_AdmitCallResponse__Output>;
  admitCalls(options?: grpc.CallOptions): grpc.ClientDuplexStream<_orch_admission_v1_AdmitCallRequest, _orch_admission_v1_AdmitCallResponse__Output>;
  
  ListPlugins(argument: _orch_admission_v1_ListPluginsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  ListPlugins(argument: _orch_admission_v1_ListPluginsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  ListPlugins(argument: _orch_admission_v1_ListPluginsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  ListPlugins(argument: _orch_admission_v1_ListPluginsRequest, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  listPlugins(argument: _orch_admission_v1_ListPluginsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  listPlugins(argument: _orch_admission_v1_ListPluginsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  listPlugins(argument: _orch_admission_v1_ListPluginsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  listPlugins(argument: _orch_admission_v1_ListPluginsRequest, callback: grpc.requestCallback<_orch_admission_v1_ListPluginsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AdmissionHandlers extends grpc.UntypedServiceImplementation {
  Admit: grpc.handleUnaryCall<_orch_admission_v1_AdmitRequest__Output, _orch_admission_v1_AdmitResponse>;
  
  AdmitCalls: grpc.handleBidiStreamingCall<_orch_admission_v1_AdmitCallRequest__Output, _orch_admission_v1_AdmitCallResponse>;
  
  ListPlugins: grpc.handleUnaryCall<_orch_admission_v1_ListPluginsRequest__Output, _orch_admission_v1_ListPluginsResponse>;
  
}

export interface AdmissionDefinition extends grpc.ServiceDefinition {
  Admit: MethodDefinition<_orch_admission_v1_AdmitRequest, _orch_admission_v1_AdmitResponse, _orch_admission_v1_AdmitRequest__Output, _orch_admission_v1_AdmitResponse__Output>
  AdmitCalls: MethodDefinition<_orch_admission_v1_AdmitCallRequest, _orch_admission_v1_AdmitCallResponse, _orch_admission_v1_AdmitCallRequest__Output, _orch_admission_v1_AdmitCallResponse__Output>
  ListPlugins: MethodDefinition<_orch_admission_v1_ListPluginsRequest, _orch_admission_v1_ListPluginsResponse, _orch_admission_v1_ListPluginsRequest__Output, _orch_admission_v1_ListPluginsResponse__Output>
}
