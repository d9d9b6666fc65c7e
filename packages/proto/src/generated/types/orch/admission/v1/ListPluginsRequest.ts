// Original file: proto/orch/admission/v1/admission.proto


export interface ListPluginsRequest {
}

export interface ListPluginsRequest__Output {
}
