// Original file: proto/orch/storage/v1/storage.proto

export const Consistency = {
  CONSISTENCY_MOST_RECENT: 'CONSISTENCY_MOST_RECENT',
  CONSISTENCY_ANY: 'CONSISTENCY_ANY',
  CONSISTENCY_NOT_OLDER_THAN: 'CONSISTENCY_NOT_OLDER_THAN',
  CONSISTENCY_EXACT: 'CONSISTENCY_EXACT',
} as const;

export type Consistency =
  | 'CONSISTENCY_MOST_RECENT'
  | 0
  | 'CONSISTENCY_ANY'
  | 1
  | 'CONSISTENCY_NOT_OLDER_THAN'
  | 2
  | 'CONSISTENCY_EXACT'
  | 3

export type Consistency__Output = typeof Consistency[keyof typeof Consistency]
