// ferrapi-fetch: exact numbers and pages that turn themselves, for an openapi-fetch client of a
// ferrapi (or FastAPI) service. One file, two dependencies: `lossless-json` (4.x) and
// `openapi-fetch` (0.17). See README.md beside it.
//
//   const client = createClient<paths>({ baseUrl, fetch: losslessFetch(), bodySerializer: losslessBody });
//   for await (const doctor of items(client, "/doctors", { params: { query: { specialty } } }, paging["/doctors"])) …
//
// Numbers: `JSON.parse` turns every number into a double, so 18446744073709551616 arrives as
// 18446744073709552000 and 1e400 as Infinity, while the service keeps numbers as they were sent.
// Here a number a `number` holds exactly stays a `number` (typed code stays as it was); an integer
// it cannot hold is a `bigint`; any other number it cannot hold (1e400, 1e-400, a 40-digit
// decimal, 9007199254740993.0) is a `LosslessNumber` keeping its text. Writing puts each back as
// it was read. (Node 20's `JSON.parse` gives a reviver no access to a number's source text: the
// TC39 proposal "JSON.parse source text access" ships from V8 11.4, and Node 20's is 11.3; hence
// a parser that sees the text, lossless-json's.)

import type { Client, ClientPathsWithMethod, MaybeOptionalInit, MethodResponse } from "openapi-fetch";
import {
  LosslessNumber,
  isInteger,
  isLosslessNumber,
  isSafeNumber,
  parse as parseText,
  stringify as stringifyValue,
} from "lossless-json";

export { LosslessNumber, isLosslessNumber };

/** A JSON number as `parse` gives it: a `number` when a double holds it exactly, else a `bigint`
 * (an integer) or a `LosslessNumber` (its text). */
export type JsonNumber = number | bigint | LosslessNumber;

/** Reads one number's text: a `number` when it round-trips through a double (same significant
 * digits, finite, a safe integer if it is one), a `bigint` for any other integer, a
 * `LosslessNumber` (the text itself) for any other number. */
export function parseNumber(text: string): JsonNumber {
  if (isSafeNumber(text)) return Number(text);
  if (isInteger(text)) return BigInt(text);
  return new LosslessNumber(text);
}

/** `JSON.parse` that loses no number: see `parseNumber`. Throws a `SyntaxError` on invalid JSON. */
export function parse(text: string): unknown {
  return parseText(text, null, parseNumber);
}

// `-0` is a double, but `JSON.stringify(-0)` writes `0`: written as read.
const negativeZero = { test: (value: unknown) => Object.is(value, -0), stringify: () => "-0" };

/** `JSON.stringify` that writes a `bigint` and a `LosslessNumber` as their digits and `-0` as
 * `-0`, so whatever `parse` read is written back byte for byte (a safe number in its shortest
 * form: `1.50` was read as the number 1.5). `undefined` where `JSON.stringify` gives it. */
export function stringify(value: unknown): string | undefined {
  return stringifyValue(value, null, undefined, [negativeZero]);
}

/** The `bodySerializer` option of openapi-fetch's `createClient`: its default serializer with
 * `stringify` in place of `JSON.stringify` (a `FormData` is sent as it is, a body whose
 * Content-Type is `application/x-www-form-urlencoded` as a form). */
export function losslessBody(body: unknown, headers?: Headers | Record<string, unknown>): unknown {
  if (body instanceof FormData) return body;
  const contentType =
    headers instanceof Headers ? headers.get("Content-Type") : headers?.["Content-Type"] ?? headers?.["content-type"];
  if (contentType === "application/x-www-form-urlencoded") {
    return new URLSearchParams(body as Record<string, string>).toString();
  }
  return stringify(body);
}

/** The signature openapi-fetch calls its `fetch` option with. */
export type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
// The text of each error answer `losslessFetch` saw, for `errorBody`.
const errorTexts = new WeakMap<Response, string>();

/** The `fetch` option of openapi-fetch's `createClient`: answers in JSON (`application/json`,
 * `…+json`) come back with a `.json()` that parses with `parse`. Other answers (streams, text,
 * bytes) are passed on untouched.
 *
 * openapi-fetch 0.17 calls `.json()` only on a success that has a `Content-Length`; it reads a
 * chunked one and every error answer with `.text()` and the global `JSON.parse`. So a JSON answer
 * is read here and handed on as a new `Response` with its bytes, status, headers (with a
 * `Content-Length` when it had none), URL and this `.json()`; an error answer's text is kept for
 * `errorBody`. */
export function losslessFetch(base: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null || !JSON_MEDIA.test(response.headers.get("Content-Type") ?? "")) {
      return response;
    }
    const bytes = await response.arrayBuffer();
    const answer = rebuild(response, bytes);
    if (!answer.ok) errorTexts.set(answer, new TextDecoder().decode(bytes));
    return answer;
  };
}

// A Response with these bytes and the original's status, headers, URL and kind, whose `.json()`
// (and whose clones' `.json()`) parse with `parse`.
function rebuild(original: Response, bytes: ArrayBuffer): Response {
  const headers = new Headers(original.headers);
  if (!headers.has("Content-Length")) headers.set("Content-Length", String(bytes.byteLength));
  const answer = new Response(bytes, { status: original.status, statusText: original.statusText, headers });
  Object.defineProperties(answer, {
    url: { value: original.url },
    redirected: { value: original.redirected },
    type: { value: original.type },
    json: { value: async () => parse(new TextDecoder().decode(bytes)) },
    clone: { value: () => rebuild(original, bytes) },
  });
  return answer;
}

/** The body of an error answer (openapi-fetch's `error`), parsed with `parse` when the answer
 * came through `losslessFetch`: openapi-fetch 0.17 parses error answers with the global
 * `JSON.parse` itself, rounding their numbers. */
export function errorBody<E>(result: { error?: E; response: Response }): E | undefined {
  const text = errorTexts.get(result.response);
  if (text === undefined) return result.error;
  try {
    return parse(text) as E;
  } catch {
    return result.error;
  }
}

// ---- Pages.

/** How a GET operation pages (a row of the table `ferrapi-client typescript-paging` writes):
 * the names of its offset and limit query parameters, the page size when the caller sets no
 * limit, and the largest offset the service accepts (`null`: none). */
export interface PagingRule {
  readonly offset: string;
  readonly limit: string;
  readonly pageSize: number;
  readonly maxOffset: number | null;
}

/** A page answered with another status than 200: the status and the body (parsed with `parse`
 * when the client's fetch is `losslessFetch`). */
export class PageError extends Error {
  constructor(
    /** The operation's path, as in the document. */
    readonly path: string,
    /** The offset the page was asked at. */
    readonly offset: number,
    /** The answer's status. */
    readonly status: number,
    /** The answer's body: JSON parsed, else its text, else `undefined`. */
    readonly body: unknown,
    /** The whole answer (its body already read). */
    readonly response: Response,
  ) {
    super(`GET ${path} at offset ${offset} answered ${status}: ${describe(body)}`);
    this.name = "PageError";
  }
}

/** The next page would start beyond the operation's maximum offset: the items read so far were
 * given, and more may exist. Never a silent end, which would lose those items without a word. */
export class PageLimitError extends Error {
  constructor(
    /** The operation's path, as in the document. */
    readonly path: string,
    /** The largest offset the service accepts. */
    readonly maxOffset: number,
    /** How many items were read (and given) before this error. */
    readonly itemsRead: number,
  ) {
    super(
      `GET ${path}: the next page would start beyond the maximum offset ${maxOffset} after ${itemsRead} items; ` +
        "more may exist: narrow the query",
    );
    this.name = "PageLimitError";
  }
}

function describe(body: unknown): string {
  const text = typeof body === "string" ? body : (stringify(body) ?? String(body));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

type PathsOf<C> = C extends Client<infer Paths, infer _Media> ? Paths : never;
type ItemOf<Data> = Data extends readonly (infer Item)[] ? Item : never;

/** The GET paths of a client. */
export type GetPath<C extends Client<any, any>> = ClientPathsWithMethod<C, "get">;
/** The options of a GET call of `path` (its parameters, headers, …), as `client.GET` takes them. */
export type GetInit<C extends Client<any, any>, P extends GetPath<C>> = MaybeOptionalInit<PathsOf<C>[P], "get">;
/** The item type of a GET operation whose 200 answer is an array. */
export type PageItem<C extends Client<any, any>, P extends GetPath<C>> = ItemOf<MethodResponse<C, "get", P>>;

type Answer = { data?: unknown; error?: unknown; response: Response };
type Call = (path: string, init: Record<string, unknown>) => Promise<Answer>;

/** The pages of a GET operation that pages, in order, each an array of its items, following the
 * paging contract: the page size is the caller's limit, else `paging.pageSize`; the first offset
 * the caller's, else 0; the next one the offset plus the items received; it stops after a page
 * shorter than the limit (an empty one included). It throws a `PageLimitError` when the next
 * offset would pass `paging.maxOffset` after a full page (that page is given first), and a
 * `PageError` for a page answered with another status than 200 (or without an array). */
export async function* pages<C extends Client<any, any>, P extends GetPath<C>>(
  client: C,
  path: P,
  init: GetInit<C, P>,
  paging: PagingRule,
): AsyncGenerator<PageItem<C, P>[], void, undefined> {
  const options = (init ?? {}) as Record<string, unknown> & { params?: Record<string, unknown> };
  const query = { ...((options.params?.query as Record<string, unknown> | undefined) ?? {}) };
  const limit: unknown = query[paging.limit] ?? paging.pageSize;
  const start: unknown = query[paging.offset] ?? 0;
  // A limit of 0 would ask the same empty page forever; a text would be concatenated, not added.
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`GET ${path}: the page size (${paging.limit}) must be a positive integer, not ${String(limit)}`);
  }
  if (typeof start !== "number" || !Number.isSafeInteger(start) || start < 0) {
    throw new RangeError(`GET ${path}: the offset (${paging.offset}) must be an integer ≥ 0, not ${String(start)}`);
  }
  let offset = start;
  // Typed by the public signature; the call itself goes through openapi-fetch untyped.
  const get = client.GET.bind(client) as unknown as Call;
  let itemsRead = 0;
  for (;;) {
    const answer = await get(path, {
      ...options,
      parseAs: "json",
      params: { ...options.params, query: { ...query, [paging.offset]: offset, [paging.limit]: limit } },
    });
    const status = answer.response.status;
    if (status !== 200 || !Array.isArray(answer.data)) {
      const body = answer.response.ok ? answer.data : errorBody(answer);
      throw new PageError(path, offset, status, body, answer.response);
    }
    const page = answer.data as PageItem<C, P>[];
    itemsRead += page.length;
    yield page;
    if (page.length < limit) return;
    const next = offset + page.length;
    if (paging.maxOffset !== null && next > paging.maxOffset) {
      throw new PageLimitError(path, paging.maxOffset, itemsRead);
    }
    offset = next;
  }
}

/** The items of a GET operation that pages, one by one, across its pages: see `pages`. */
export async function* items<C extends Client<any, any>, P extends GetPath<C>>(
  client: C,
  path: P,
  init: GetInit<C, P>,
  paging: PagingRule,
): AsyncGenerator<PageItem<C, P>, void, undefined> {
  for await (const page of pages(client, path, init, paging)) {
    yield* page;
  }
}
