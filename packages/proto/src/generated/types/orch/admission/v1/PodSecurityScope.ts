// Original file: proto/orch/admission/v1/admission.proto


export interface PodSecurityScope {
  'default_audit_level'?: (string);
  'default_warn_level'?: (string);
  'exempt_namespaces'?: (string)[];
  'exempt_usernames'?: (string)[];
}

export interface PodSecurityScope__Output {
  'default_audit_level': (string);
  'default_warn_level': (string);
  'exempt_namespaces': (string)[];
  'exempt_usernames': (string)[];
}
