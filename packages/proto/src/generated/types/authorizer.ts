import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuthorizeRequest as _orch_authz_v1_AuthorizeRequest, AuthorizeRequest__Output as _orch_authz_v1_AuthorizeRequest__Output } from './orch/authz/v1/AuthorizeRequest.js';
import type { AuthorizeResponse as _orch_authz_v1_AuthorizeResponse, AuthorizeResponse__Output as _orch_authz_v1_AuthorizeResponse__Output } from './orch/authz/v1/AuthorizeResponse.js';
import type { AuthorizerClient as _orch_authz_v1_AuthorizerClient, AuthorizerDefinition as _orch_authz_v1_AuthorizerDefinition } from './orch/authz/v1/Authorizer.js';
import type { NonResourceRule as _orch_authz_v1_NonResourceRule, NonResourceRule__Output as _orch_authz_v1_NonResourceRule__Output } from './orch/authz/v1/NonResourceRule.js';
import type { ResourceRule as _orch_authz_v1_ResourceRule, ResourceRule__Output as _orch_authz_v1_ResourceRule__Output } from './orch/authz/v1/ResourceRule.js';
import type { RulesReviewRequest as _orch_authz_v1_RulesReviewRequest, RulesReviewRequest__Output as _orch_authz_v1_RulesReviewRequest__Output } from './orch/authz/v1/RulesReviewRequest.js';
import type { RulesReviewResponse as _orch_authz_v1_RulesReviewResponse, RulesReviewResponse__Output as _orch_authz_v1_RulesReviewResponse__Output } from './orch/authz/v1/RulesReviewResponse.js';
import type { StringList as _orch_authz_v1_StringList, StringList__Output as _orch_authz_v1_StringList__Output } from './orch/authz/v1/StringList.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  orch: {
    authz: {
      v1: {
        AuthorizeRequest: MessageTypeDefinition<_orch_authz_v1_AuthorizeRequest, _orch_authz_v1_AuthorizeRequest__Output>
        AuthorizeResponse: MessageTypeDefinition<_orch_authz_v1_AuthorizeResponse, _orch_authz_v1_AuthorizeResponse__Output>
        Authorizer: SubtypeConstructor<typeof grpc.Client, _orch_authz_v1_AuthorizerClient> & { service: _orch_authz_v1_AuthorizerDefinition }
        Decision: EnumTypeDefinition
        NonResourceRule: MessageTypeDefinition<_orch_authz_v1_NonResourceRule, _orch_authz_v1_NonResourceRule__Output>
        ResourceRule: MessageTypeDefinition<_orch_authz_v1_ResourceRule, _orch_authz_v1_ResourceRule__Output>
        RulesReviewRequest: MessageTypeDefinition<_orch_authz_v1_RulesReviewRequest, _orch_authz_v1_RulesReviewRequest__Output>
        RulesReviewResponse: MessageTypeDefinition<_orch_authz_v1_RulesReviewResponse, _orch_authz_v1_RulesReviewResponse__Output>
        StringList: MessageTypeDefinition<_orch_authz_v1_StringList, _orch_authz_v1_StringList__Output>
      }
    }
  }
}

