// Shuffle sharding (k8s pkg/util/shufflesharding): a flow's hash deals it a hand of queues out of
// the deck, so two flows share a whole hand only rarely and one heavy flow hurts few others.

/** The bits of a hash a deal may use: past 60 the last card's unevenness grows (upstream's MaxHashBits). */
export const maxHashBits = 60;

/** A slightly conservative estimate of the hash bits a deal of handSize cards from deckSize consumes. */
export const requiredEntropyBits = (deckSize: number, handSize: number): number =>
  Math.ceil(Math.log2(deckSize) * handSize);

/** Why a deck and hand cannot deal (upstream NewDealer's errors), or undefined when they can. */
export function dealerError(deckSize: number, handSize: number): string | undefined {
  if (deckSize <= 0 || handSize <= 0)
    return `deckSize ${deckSize} or handSize ${handSize} is not positive`;
  if (handSize > deckSize) return `handSize ${handSize} is greater than deckSize ${deckSize}`;
  if (deckSize > 1 << 26) return `deckSize ${deckSize} is impractically large`;
  if (requiredEntropyBits(deckSize, handSize) > maxHashBits)
    return `required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${maxHashBits}`;
  return undefined;
}

export class Dealer {
  private constructor(
    readonly deckSize: number,
    readonly handSize: number
  ) {}

  static create(deckSize: number, handSize: number): Dealer {
    const err = dealerError(deckSize, handSize);
    if (err) throw new Error(err);
    return new Dealer(deckSize, handSize);
  }

  /**
   * The hand for a 64-bit hash: each card the remainder of the hash by the deck left, then lifted
   * over the cards dealt before it (upstream's Deal, card for card). A hash within 2^53 takes the
   * number path, the same arithmetic without BigInt.
   */
  deal(hash: bigint | number): number[] {
    const remainders: number[] = [];
    if (typeof hash === 'number' || hash <= BigInt(Number.MAX_SAFE_INTEGER)) {
      let h = Number(hash);
      for (let i = 0; i < this.handSize; i++) {
        const size = this.deckSize - i;
        const next = Math.floor(h / size);
        remainders.push(h - next * size);
        h = next;
      }
    } else {
      let h = hash;
      for (let i = 0; i < this.handSize; i++) {
        const size = BigInt(this.deckSize - i);
        remainders.push(Number(h % size));
        h /= size;
      }
    }
    const hand: number[] = [];
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i]!;
      for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
      hand.push(card);
    }
    return hand;
  }
}
