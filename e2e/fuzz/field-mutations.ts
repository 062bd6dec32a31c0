import fc from 'fast-check';
import type { Draft } from './draft.ts';
import { boundaryNumber, CONTROL, hostileValue, mangledUuid, RawJson, wideJson } from './hostile.ts';
import { jsonValue } from './zod-arbitrary.ts';

/** One edit of a draft, its randomness drawn in advance so that a seed replays it exactly. */
export type Mutation = (d: Draft) => void;

type Container = Record<string | number, unknown>;
interface Slot {
  holder: Container;
  key: string | number;
  where: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every field of the body, query and path parameters, nested ones included. */
function slots(d: Draft): Slot[] {
  const out: Slot[] = [];
  const visit = (holder: Container, where: string, depth: number) => {
    for (const key of Object.keys(holder)) {
      const slot = { holder, key: Array.isArray(holder) ? Number(key) : key, where: `${where}.${key}` };
      out.push(slot);
      const v = holder[key];
      if (depth < 4 && v && typeof v === 'object' && !(v instanceof RawJson))
        visit(v as Container, slot.where, depth + 1);
    }
  };
  visit(d.params, 'params', 0);
  visit(d.query, 'query', 0);
  if (d.body && typeof d.body === 'object') visit(d.body as Container, 'body', 0);
  return out;
}

/** Sets even an own `__proto__` key, as JSON text can; a frozen holder stays as it is. */
function put(holder: Container, key: string | number, value: unknown): boolean {
  try {
    Object.defineProperty(holder, key, { value, enumerable: true, configurable: true, writable: true });
    return true;
  } catch {
    return false;
  }
}

export const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length ? items[n % items.length] : undefined;

export const setField = fc.tuple(fc.nat(), hostileValue).map(
  ([n, value]): Mutation =>
    (d) => {
      const s = pick(slots(d), n);
      if (!s || !put(s.holder, s.key, value)) return;
      d.notes.push(`${s.where}=hostile`);
    },
);

/** A control character inside a field's own valid text: everything else about the request holds. */
export const injectControl = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...CONTROL)).map(
  ([n, at, ch]): Mutation =>
    (d) => {
      const s = pick(
        slots(d).filter((x) => typeof x.holder[x.key] === 'string'),
        n,
      );
      if (!s) return;
      const text = s.holder[s.key] as string;
      const i = at % (text.length + 1);
      if (!put(s.holder, s.key, `${text.slice(0, i)}${ch}${text.slice(i)}`)) return;
      d.notes.push(`${s.where} with ${JSON.stringify(ch)}`);
    },
);

/** A number field at one of its edges. */
export const edgeNumber = fc.tuple(fc.nat(), boundaryNumber).map(
  ([n, value]): Mutation =>
    (d) => {
      const s = pick(
        slots(d).filter(
          (x) =>
            typeof x.holder[x.key] === 'number' ||
            /coin|rank|page|limit|take|month|year|max/i.test(String(x.key)),
        ),
        n,
      );
      if (!s || !put(s.holder, s.key, value)) return;
      d.notes.push(`${s.where}=${value instanceof RawJson ? value.text : value}`);
    },
);

export const removeField = fc.nat().map(
  (n): Mutation =>
    (d) => {
      const s = pick(slots(d), n);
      if (!s) return;
      if (Object.isFrozen(s.holder)) return;
      if (Array.isArray(s.holder)) s.holder.splice(Number(s.key), 1);
      else delete s.holder[s.key];
      d.notes.push(`${s.where} removed`);
    },
);

export const extraField = fc
  .tuple(fc.constantFrom('extra', 'userid', 'isAdmin', 'partnerId', 'coins', '__proto__'), jsonValue)
  .map(
    ([key, value]): Mutation =>
      (d) => {
        const target =
          d.body && typeof d.body === 'object' && !Array.isArray(d.body) ? (d.body as Container) : undefined;
        put(target ?? d.query, key, value);
        d.notes.push(`extra field ${key}`);
      },
  );

export const uuidCase = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 1 << 30 })).map(
  ([n, variantSeed]): Mutation =>
    (d) => {
      const s = pick(
        slots(d).filter((x) => typeof x.holder[x.key] === 'string' && UUID.test(x.holder[x.key] as string)),
        n,
      );
      if (!s) return;
      const [mangled] = fc.sample(mangledUuid(s.holder[s.key] as string), { seed: variantSeed, numRuns: 1 });
      s.holder[s.key] = mangled;
      d.notes.push(`${s.where} uuid form ${JSON.stringify(mangled)}`);
    },
);

export const replaceBody = fc.oneof(hostileValue, fc.constantFrom(null, [], [{}], 'text', 42)).map(
  (value): Mutation =>
    (d) => {
      d.body = value instanceof RawJson ? value : structuredClone(value);
      if (!d.headers.some(([h]) => h === 'content-type'))
        d.headers.push(['content-type', 'application/json']);
      d.notes.push('body replaced');
    },
);

export const manyUsers = fc.tuple(fc.integer({ min: 500, max: 2_000 }), fc.boolean()).map(
  ([n, sameId]): Mutation =>
    (d) => {
      const users = (d.body as { users?: unknown[] } | undefined)?.users;
      if (!Array.isArray(users) || users.length === 0) return;
      const first = users[0] as Record<string, unknown>;
      const grown = Array.from({ length: n }, (_, i) =>
        sameId
          ? first
          : { ...first, userId: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000` },
      );
      (d.body as { users: unknown[] }).users = grown;
      d.notes.push(`${n} users${sameId ? ' with one id' : ''}`);
    },
);

export const bigUserData = fc.tuple(wideJson, fc.integer({ min: 1, max: 40 })).map(
  ([data, copies]): Mutation =>
    (d) => {
      const users = (d.body as { users?: unknown[] } | undefined)?.users;
      if (!Array.isArray(users) || users.length === 0) return;
      const first = users[0] as Record<string, unknown>;
      (d.body as { users: unknown[] }).users = Array.from({ length: copies }, (_, i) => ({
        ...first,
        userId: `${i.toString(16).padStart(8, '0')}-1111-4000-8000-000000000000`,
        userData: { data },
      }));
      d.notes.push(`${copies} users with wide userData`);
    },
);

export const duplicateQuery = fc.tuple(fc.nat(), jsonValue).map(
  ([n, extra]): Mutation =>
    (d) => {
      const key = pick(Object.keys(d.query), n) ?? 'page';
      put(d.query, key, [d.query[key] ?? '1', extra]);
      d.notes.push(`query ${key} twice`);
    },
);
