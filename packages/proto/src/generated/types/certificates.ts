import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdmissionClient as _orch_admission_v1_AdmissionClient, AdmissionDefinition as _orch_admission_v1_AdmissionDefinition } from './orch/admission/v1/Admission.js';
import type { AdmitCallRequest as _orch_admission_v1_AdmitCallRequest, AdmitCallRequest__Output as _orch_admission_v1_AdmitCallRequest__Output } from './orch/admission/v1/AdmitCallRequest.js';
import type { AdmitCallResponse as _orch_admission_v1_AdmitCallResponse, AdmitCallResponse__Output as _orch_admission_v1_AdmitCallResponse__Output } from './orch/admission/v1/AdmitCallResponse.js';
import type { AdmitRequest as _orch_admission_v1_AdmitRequest, AdmitRequest__Output as _orch_admission_v1_AdmitRequest__Output } from './orch/admission/v1/AdmitRequest.js';
import type { AdmitResponse as _orch_admission_v1_AdmitResponse, AdmitResponse__Output as _orch_admission_v1_AdmitResponse__Output } from './orch/admission/v1/AdmitResponse.js';
import type { CallError as _orch_admission_v1_CallError, CallError__Output as _orch_admission_v1_CallError__Output } from './orch/admission/v1/CallError.js';
import type { ListPluginsRequest as _orch_admission_v1_ListPluginsRequest, ListPluginsRequest__Output as _orch_admission_v1_ListPluginsRequest__Output } from './orch/admission/v1/ListPluginsRequest.js';
import type { ListPluginsResponse as _orch_admission_v1_ListPluginsResponse, ListPluginsResponse__Output as _orch_admission_v1_ListPluginsResponse__Output } from './orch/admission/v1/ListPluginsResponse.js';
import type { PodSecurityScope as _orch_admission_v1_PodSecurityScope, PodSecurityScope__Output as _orch_admission_v1_PodSecurityScope__Output } from './orch/admission/v1/PodSecurityScope.js';
import type { Status as _orch_admission_v1_Status, Status__Output as _orch_admission_v1_Status__Output } from './orch/admission/v1/Status.js';
import type { StatusCause as _orch_admission_v1_StatusCause, StatusCause__Output as _orch_admission_v1_StatusCause__Output } from './orch/admission/v1/StatusCause.js';
import type { StringList as _orch_admission_v1_StringList, StringList__Output as _orch_admission_v1_StringList__Output } from './orch/admission/v1/StringList.js';
import type { UserInfo as _orch_admission_v1_UserInfo, UserInfo__Output as _orch_admission_v1_UserInfo__Output } from './orch/admission/v1/UserInfo.js';
import type { CertificatesClient as _orch_certificates_v1_CertificatesClient, CertificatesDefinition as _orch_certificates_v1_CertificatesDefinition } from './orch/certificates/v1/Certificates.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  orch: {
    admission: {
      v1: {
        Admission: SubtypeConstructor<typeof grpc.Client, _orch_admission_v1_AdmissionClient> & { service: _orch_admission_v1_AdmissionDefinition }
        AdmitCallRequest: MessageTypeDefinition<_orch_admission_v1_AdmitCallRequest, _orch_admission_v1_AdmitCallRequest__Output>
        AdmitCallResponse: MessageTypeDefinition<_orch_admission_v1_AdmitCallResponse, _orch_admission_v1_AdmitCallResponse__Output>
        AdmitRequest: MessageTypeDefinition<_orch_admission_v1_AdmitRequest, _orch_admission_v1_AdmitRequest__Output>
        AdmitResponse: MessageTypeDefinition<_orch_admission_v1_AdmitResponse, _orch_admission_v1_AdmitResponse__Output>
        CallError: MessageTypeDefinition<_orch_admission_v1_CallError, _orch_admission_v1_CallError__Output>
        ListPluginsRequest: MessageTypeDefinition<_orch_admission_v1_ListPluginsRequest, _orch_admission_v1_ListPluginsRequest__Output>
        ListPluginsResponse: MessageTypeDefinition<_orch_admission_v1_ListPluginsResponse, _orch_admission_v1_ListPluginsResponse__Output>
        Phase: EnumTypeDefinition
        PodSecurityScope: MessageTypeDefinition<_orch_admission_v1_PodSecurityScope, _orch_admission_v1_PodSecurityScope__Output>
        Status: MessageTypeDefinition<_orch_admission_v1_Status, _orch_admission_v1_Status__Output>
        StatusCause: MessageTypeDefinition<_orch_admission_v1_StatusCause, _orch_admission_v1_StatusCause__Output>
        StringList: MessageTypeDefinition<_orch_admission_v1_StringList, _orch_admission_v1_StringList__Output>
        UserInfo: MessageTypeDefinition<_orch_admission_v1_UserInfo, _orch_admission_v1_UserInfo__Output>
      }
    }
    certificates: {
      v1: {
        Certificates: SubtypeConstructor<typeof grpc.Client, _orch_certificates_v1_CertificatesClient> & { service: _orch_certificates_v1_CertificatesDefinition }
      }
    }
  }
}

