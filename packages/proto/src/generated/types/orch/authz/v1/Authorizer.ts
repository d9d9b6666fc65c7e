// Original file: proto/orch/authz/v1/authorizer.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthorizeRequest as _orch_authz_v1_AuthorizeRequest, AuthorizeRequest__Output as _orch_authz_v1_AuthorizeRequest__Output } from '../../../orch/authz/v1/AuthorizeRequest.js';
import type { AuthorizeResponse as _orch_authz_v1_AuthorizeResponse, AuthorizeResponse__Output as _orch_authz_v1_AuthorizeResponse__Output } from '../../../orch/authz/v1/AuthorizeResponse.js';
import type { RulesReviewRequest as _orch_authz_v1_RulesReviewRequest, RulesReviewRequest__Output as _orch_authz_v1_RulesReviewRequest__Output } from '../../../orch/authz/v1/RulesReviewRequest.js';
import type { RulesReviewResponse as _orch_authz_v1_RulesReviewResponse, RulesReviewResponse__Output as _orch_authz_v1_RulesReviewResponse__Output } from '../../../orch/authz/v1/RulesReviewResponse.js';

export interface AuthorizerClient extends grpc.Client {
  Authorize(argument: _orch_authz_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _orch_authz_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _orch_authz_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _orch_authz_v1_AuthorizeRequest, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _orch_authz_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _orch_authz_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _orch_authz_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _orch_authz_v1_AuthorizeRequest, callback: grpc.requestCallback<_orch_authz_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  
  RulesReview(argument: _orch_authz_v1_RulesReviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  RulesReview(argument: _orch_authz_v1_RulesReviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  RulesReview(argument: _orch_authz_v1_RulesReviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  RulesReview(argument: _orch_authz_v1_RulesReviewRequest, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  rulesReview(argument: _orch_authz_v1_RulesReviewRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  rulesReview(argument: _orch_authz_v1_RulesReviewRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  rulesReview(argument: _orch_authz_v1_RulesReviewRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  rulesReview(argument: _orch_authz_v1_RulesReviewRequest, callback: grpc.requestCallback<_orch_authz_v1_RulesReviewResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AuthorizerHandlers extends grpc.UntypedServiceImplementation {
  Authorize: grpc.handleUnaryCall<_orch_authz_v1_AuthorizeRequest__Output, _orch_authz_v1_AuthorizeResponse>;
  
  RulesReview: grpc.handleUnaryCall<_orch_authz_v1_RulesReviewRequest__Output, _orch_authz_v1_RulesReviewResponse>;
  
}

export interface AuthorizerDefinition extends grpc.ServiceDefinition {
  Authorize: MethodDefinition<_orch_authz_v1_AuthorizeRequest, _orch_authz_v1_AuthorizeResponse, _orch_authz_v1_AuthorizeRequest__Output, _orch_authz_v1_AuthorizeResponse__Output>
  RulesReview: MethodDefinition<_orch_authz_v1_RulesReviewRequest, _orch_authz_v1_RulesReviewResponse, _orch_authz_v1_RulesReviewRequest__Output, _orch_authz_v1_RulesReviewResponse__Output>
}
