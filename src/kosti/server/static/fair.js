// Provably fair dice recomputed by this browser, with its own WebCrypto: the algorithm of
// kosti.roller.fair_die, die for die. Die `index` of throw `nonce` is read from the bytes of
// HMAC-SHA256(server seed, "client_seed:nonce:index"): the first byte below 252 gives
// byte % 6 + 1 (bytes of 252 or more are rejected, which keeps the six faces equally likely);
// when all 32 are rejected the message gets ":1", ":2", … and the search goes on.
//
// The throws of a game are numbered (the nonce) from 0 in the order made: the roll-off for who
// starts first (the record's "rolloff", five dice a throw, kept sorted), then every
// {"roll": [...]} of the record's turns in order, its dice in the order read. Nothing else of
// the game is replayed here: whether every decision follows the rules is the server's check
// (kosti.server.fair.verify), and `kosti verify` for whoever downloads the record.

const REJECT_FROM = 252; // the largest multiple of 6 under 256
const ROLLOFF_DICE = 5;
const encoder = new TextEncoder();

/** Whether this browser can recompute dice here: WebCrypto's `crypto.subtle` (https or localhost only). */
export function canCheck() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle);
}

/** The message signed for die `index` of throw `nonce`: "client_seed:nonce:index", and ":round" after it from round 1 on. */
export function dieMessage(clientSeed, nonce, index, round = 0) {
  const message = `${clientSeed}:${nonce}:${index}`;
  return round ? `${message}:${round}` : message;
}

/** The face that the bytes of one HMAC give: the first byte below 252 as byte % 6 + 1; null when every byte is rejected. */
export function faceOf(bytes) {
  for (const byte of bytes) if (byte < REJECT_FROM) return (byte % 6) + 1;
  return null;
}

/** The bytes of a seed given in hex; an Error when it is not hex bytes. */
function seedBytes(serverSeedHex) {
  if (typeof serverSeedHex !== "string" || !/^(?:[0-9a-f]{2})+$/.test(serverSeedHex)) throw new Error("the server seed is not hex bytes");
  return new Uint8Array(serverSeedHex.match(/../g).map((b) => parseInt(b, 16)));
}

/** The server seed given in hex as an HMAC-SHA-256 key for signing; an Error when it is not hex bytes. */
export async function seedKey(serverSeedHex) {
  return crypto.subtle.importKey("raw", seedBytes(serverSeedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The SHA-256 of a seed given in hex, in hex: its fingerprint, as the server shows it before the
 * first throw; an Error when it is not hex bytes. */
export async function seedFingerprint(serverSeedHex) {
  const digest = await crypto.subtle.digest("SHA-256", seedBytes(serverSeedHex));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Die `index` (from 0) of throw `nonce`, 1..6, exactly as kosti.roller.fair_die gives it.
 * `seed`: the server seed in hex, or a key that seedKey made of it (quicker for many dice). */
export async function fairDie(seed, clientSeed, nonce, index) {
  const key = typeof seed === "string" ? await seedKey(seed) : seed;
  for (let round = 0; ; round++) {
    const digest = await crypto.subtle.sign("HMAC", key, encoder.encode(dieMessage(clientSeed, nonce, index, round)));
    const face = faceOf(new Uint8Array(digest));
    if (face !== null) return face;
  }
}

/** The `count` dice of throw `nonce`, in the order read (die 0 first). */
export async function fairThrow(key, clientSeed, nonce, count) {
  return Promise.all(Array.from({ length: count }, (_, index) => fairDie(key, clientSeed, nonce, index)));
}

function isFaces(faces) {
  return Array.isArray(faces) && faces.length > 0 && faces.every((f) => Number.isInteger(f) && f >= 1 && f <= 6);
}

/** Every throw of a record in the order made, each with its nonce: {nonce, rolloff: true, throw,
 * player, faces} for the roll-off (throw counted from 1), {nonce, rolloff: false, turn, throw,
 * player, faces} for a roll of the turns (turn from 1, the throw counted from 1 within it).
 * An Error when the record is not one: a throw that is not a list of faces 1..6, say. */
export function throwsOf(record) {
  if (!record || typeof record !== "object" || !Array.isArray(record.turns)) throw new Error("not a game record");
  const throws = [];
  const rolloff = record.rolloff ?? [];
  if (!Array.isArray(rolloff)) throw new Error("the roll-off is not a list");
  rolloff.forEach((item, k) => {
    if (!item || typeof item.player !== "string" || !isFaces(item.roll)) throw new Error(`roll-off throw ${k + 1} is not one`);
    throws.push({ nonce: throws.length, rolloff: true, throw: k + 1, player: item.player, faces: item.roll });
  });
  record.turns.forEach((turn, t) => {
    if (!turn || typeof turn.player !== "string" || !Array.isArray(turn.actions)) throw new Error(`turn ${t + 1} is not one`);
    let thrown = 0;
    for (const action of turn.actions) {
      if (!action || typeof action !== "object" || !("roll" in action)) continue;
      if (!isFaces(action.roll)) throw new Error(`a throw of turn ${t + 1} is not a list of faces`);
      thrown += 1;
      throws.push({ nonce: throws.length, rolloff: false, turn: t + 1, throw: thrown, player: turn.player, faces: action.roll });
    }
  });
  return throws;
}

function sorted(faces) {
  return [...faces].sort((a, b) => a - b);
}

/** Recompute every die of a finished game's record from its seeds and compare each with the record.
 *
 * `seeds` ({server_seed, client_seed}, the record's own "fair" unless given): the page passes the
 * seed it checked against the commitment. The answer:
 * - {status: "fair", throws, dice}: every die recomputed (throws and dice counted) is the record's;
 * - {status: "not_fair", throws, dice, mismatch}: the first throw that differs (throws and dice
 *   counted up to it, it included); `mismatch` is that throw of throwsOf, with `expected` (the
 *   faces the seeds give) and `dice` (the numbers, from 1, of the dice that differ; empty for
 *   the roll-off, whose faces the record keeps sorted, not in the order read);
 * - {status: "unreadable", reason}: no revealed seed, or the record is not one (reason in English).
 * Needs WebCrypto (canCheck). */
export async function checkGame(record, seeds = record && record.fair) {
  let key;
  let throws;
  try {
    if (!seeds || typeof seeds.client_seed !== "string") throw new Error("the record has no client seed");
    if (!seeds.server_seed) throw new Error("the server seed is not revealed yet");
    key = await seedKey(seeds.server_seed);
    throws = throwsOf(record);
  } catch (error) {
    return { status: "unreadable", reason: error.message };
  }
  let dice = 0;
  for (const [k, thrown] of throws.entries()) {
    const count = thrown.rolloff ? ROLLOFF_DICE : thrown.faces.length;
    const expected = await fairThrow(key, seeds.client_seed, thrown.nonce, count);
    dice += count;
    const want = thrown.rolloff ? sorted(expected) : expected;
    const got = thrown.rolloff ? sorted(thrown.faces) : thrown.faces;
    if (got.length !== want.length || got.some((face, i) => face !== want[i])) {
      const differ = thrown.rolloff ? [] : want.map((face, i) => (face === got[i] ? 0 : i + 1)).filter(Boolean);
      return { status: "not_fair", throws: k + 1, dice, mismatch: { ...thrown, expected: want, dice: differ } };
    }
  }
  return { status: "fair", throws: throws.length, dice };
}
