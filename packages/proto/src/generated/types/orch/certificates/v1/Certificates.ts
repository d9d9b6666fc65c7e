// Original file: proto/orch/certificates/v1/certificates.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdmitRequest as _orch_admission_v1_AdmitRequest, AdmitRequest__Output as _orch_admission_v1_AdmitRequest__Output } from '../../../orch/admission/v1/AdmitRequest.js';
import type { AdmitResponse as _orch_admission_v1_AdmitResponse, AdmitResponse__Output as _orch_admission_v1_AdmitResponse__Output } from '../../../orch/admission/v1/AdmitResponse.js';

export interface CertificatesClient extends grpc.Client {
  Admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _orch_admission_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _orch_admission_v1_AdmitRequest, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _orch_admission_v1_AdmitRequest, callback: grpc.requestCallback<_orch_admission_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface CertificatesHandlers extends grpc.UntypedServiceImplementation {
  Admit: grpc.handleUnaryCall<_orch_admission_v1_AdmitRequest__Output, _orch_admission_v1_AdmitResponse>;
  
}

export interface CertificatesDefinition extends grpc.ServiceDefinition {
  Admit: MethodDefinition<_orch_admission_v1_AdmitRequest, _orch_admission_v1_AdmitResponse, _orch_admission_v1_AdmitRequest__Output, _orch_admission_v1_AdmitResponse__Output>
}
