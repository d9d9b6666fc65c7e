// Original file: proto/orch/storage/v1/storage.proto


export interface CurrentRevisionRequest {
}

export interface CurrentRevisionRequest__Output {
}
