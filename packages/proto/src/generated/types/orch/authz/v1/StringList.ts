// Original file: proto/orch/authz/v1/authorizer.proto


export interface StringList {
  'values'?: (string)[];
}

export interface StringList__Output {
  'values': (string)[];
}
