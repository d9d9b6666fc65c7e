// Upstream's tables (pkg/util/shufflesharding/shufflesharding_test.go), one named row each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Dealer, dealerError, maxHashBits, requiredEntropyBits } from './shuffle-sharding.js';

test('RequiredEntropyBits', () => {
  for (const [name, deck, hand, bits] of [
    ['deckSize: 1024 handSize: 6', 1024, 6, 60],
    ['deckSize: 512 handSize: 8', 512, 8, 72],
  ] as const)
    assert.equal(requiredEntropyBits(deck, hand), bits, name);
});

test('NewDealer', () => {
  for (const [name, deck, hand, err] of [
    ['deckSize <= 0', -100, 8, 'deckSize -100 or handSize 8 is not positive'],
    ['handSize <= 0', 100, 0, 'deckSize 100 or handSize 0 is not positive'],
    ['handSize is greater than deckSize', 100, 101, 'handSize 101 is greater than deckSize 100'],
    ['deckSize is impractically large', 1 << 27, 2, 'deckSize 134217728 is impractically large'],
    [
      'required entropy bits is greater than MaxHashBits',
      512,
      8,
      'required entropy bits of deckSize 512 and handSize 8 is greater than 60',
    ],
    ['deckSize: 1024 handSize: 6', 1024, 6, undefined],
  ] as const) {
    assert.equal(dealerError(deck, hand), err, name);
    if (err) assert.throws(() => Dealer.create(deck, hand), { message: err }, name);
  }
});

test('CardDuplication: every hand has handSize distinct cards in the deck', () => {
  for (const [deck, hand] of [
    [4, 4],
    [8, 8],
    [10, 10],
    [12, 12],
    [128, 8],
    [256, 7],
    [512, 6],
  ] as const) {
    const dealer = Dealer.create(deck, hand);
    for (let n = 0; n < 200; n++) {
      // A random 64-bit hash, so the BigInt path is covered as well as the number one.
      const hash =
        BigInt.asUintN(64, BigInt(Math.floor(Math.random() * 2 ** 32)) << 32n) |
        BigInt(Math.floor(Math.random() * 2 ** 32));
      const cards = dealer.deal(hash);
      assert.equal(cards.length, hand);
      assert.ok(
        cards.every((c) => c >= 0 && c < deck),
        `deck ${deck} hand ${hand}: in range`
      );
      assert.equal(new Set(cards).size, hand, `deck ${deck} hand ${hand}: no duplicate`);
    }
  }
});

test('both paths deal the same hand for a hash within 2^53', () => {
  const dealer = Dealer.create(128, 6);
  for (const h of [0, 1, 12345678901, 2 ** 53 - 1])
    assert.deepEqual(dealer.deal(BigInt(h)), dealer.deal(h));
  assert.equal(maxHashBits, 60);
});

const ff = (n: number, m: number): number => {
  let ans = 1;
  for (let f = n; f > n - m; f--) ans *= f;
  return ans;
};

test('UniformDistribution: every hand is dealt a central number of times', () => {
  // Upstream's rows {128, 3, ff(128,3)} and {50, 4, ff(50,4)} deal every hash below the falling
  // factorial; the 64-card row with spare bits is left to upstream (4M deals, seconds here).
  for (const [deck, hand] of [
    [128, 3],
    [50, 4],
  ] as const) {
    const dealer = Dealer.create(deck, hand);
    const hashMax = ff(deck, hand);
    const perms = ff(hand, hand);
    const seen = new Map<number, number>();
    for (let i = 0; i < hashMax; i++) {
      const cards = dealer.deal(i).sort((a, b) => a - b);
      let coord = 0;
      for (const c of cards) coord = coord * 128 + c;
      seen.set(coord, (seen.get(coord) ?? 0) + 1);
    }
    assert.equal(seen.size, hashMax / perms, `deck ${deck} hand ${hand}: all hands seen`);
    for (const count of seen.values()) assert.equal(count, perms);
  }
});
