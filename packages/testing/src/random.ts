// Randomised tests that can be replayed: the same seed gives the same sequence.

/** A deterministic pseudo-random sequence in [0, 1) (xorshift32) from a non-zero `seed`. */
export function seededRandom(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}
