// Original file: proto/orch/admission/v1/admission.proto

export const Phase = {
  PHASE_UNSPECIFIED: 'PHASE_UNSPECIFIED',
  PHASE_MUTATING: 'PHASE_MUTATING',
  PHASE_VALIDATING: 'PHASE_VALIDATING',
} as const;

export type Phase =
  | 'PHASE_UNSPECIFIED'
  | 0
  | 'PHASE_MUTATING'
  | 1
  | 'PHASE_VALIDATING'
  | 2

export type Phase__Output = typeof Phase[keyof typeof Phase]
