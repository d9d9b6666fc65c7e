// Original file: proto/orch/authz/v1/authorizer.proto

export const Decision = {
  DECISION_NO_OPINION: 'DECISION_NO_OPINION',
  DECISION_ALLOW: 'DECISION_ALLOW',
  DECISION_DENY: 'DECISION_DENY',
} as const;

export type Decision =
  | 'DECISION_NO_OPINION'
  | 0
  | 'DECISION_ALLOW'
  | 1
  | 'DECISION_DENY'
  | 2

export type Decision__Output = typeof Decision[keyof typeof Decision]
