// Equality of API values (k8s api/equality Semantic.DeepEqual), as the API compares them here:
// by their JSON text, so key order counts and `undefined` members are ignored.

/** Whether two values serialize to the same JSON (k8s equality.Semantic.DeepEqual). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
