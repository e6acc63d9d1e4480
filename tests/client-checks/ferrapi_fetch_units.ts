// client/typescript/ferrapi-fetch.ts without a server (issue 43, item 6): what each number
// becomes and is written back as; `losslessFetch` on the answers openapi-fetch reads itself (a
// chunked success, an error answer); and the paging contract's rules through a fake `fetch`
// serving a list held here — the page size, the caller's offset and limit, the stop at a short or
// empty page, the `PageLimitError` at the maximum offset (no 10,000 rows needed), a failed page.
//
// Usage: node out/ferrapi_fetch_units.js   (scripts/client-checks.sh compiles and runs it)
// Prints one line per check and `N passed, N failed`; exits 1 if any failed.

import createClient from "openapi-fetch";
import type { components, paths } from "./generated/resource-api.js";
import {
  LosslessNumber,
  PageError,
  PageLimitError,
  type PagingRule,
  errorBody,
  isLosslessNumber,
  items,
  losslessBody,
  losslessFetch,
  pages,
  parse,
  stringify,
} from "./generated/ferrapi-fetch.js";

type Doctor = components["schemas"]["Doctor"];

let passed = 0;
const failed: string[] = [];
function check(name: string, ok: boolean, seen?: unknown): void {
  if (ok) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed.push(name);
    console.log(`FAIL ${name}: ${stringify(seen) ?? String(seen)}`);
  }
}
function kind(value: unknown): string {
  if (isLosslessNumber(value)) return "LosslessNumber";
  return typeof value;
}

// ---- Numbers: what each becomes, and written back as it came.
function numbers(): void {
  const table: [string, string][] = [
    ["18446744073709551616", "bigint"],
    ["-9223372036854775809", "bigint"],
    ["9007199254740993", "bigint"],
    ["9007199254740991", "number"],
    ["-9007199254740991", "number"],
    ["9007199254740992.0", "LosslessNumber"],
    ["1e400", "LosslessNumber"],
    ["-1E+400", "LosslessNumber"],
    ["1e-400", "LosslessNumber"],
    ["1234567890123456789012345678901234.000000", "LosslessNumber"],
    ["0.1000000000000000055511151231257827", "LosslessNumber"],
    ["-0.1", "number"],
    ["0.1", "number"],
    ["1.5", "number"],
    ["1e+300", "LosslessNumber"], // an integer beyond 2^53: 10^300 is not a double
    ["1.5e-300", "number"],
    ["-0", "number"],
    ["42", "number"],
  ];
  for (const [text, expected] of table) {
    const value = parse(text);
    check(`${text} is read as a ${expected} and written back as ${text}`, kind(value) === expected && stringify(value) === text, [
      kind(value),
      stringify(value),
    ]);
  }
  check("2^64 is the bigint 2n ** 64n", parse("18446744073709551616") === 2n ** 64n);
  check("-0 is the number -0", Object.is(parse("-0"), -0));
  // A safe number is a plain number: its shortest form is what is written back.
  check("a safe number is written in its shortest form (1.50 → 1.5, 1E5 → 100000)", stringify(parse("[1.50,1E5]")) === "[1.5,100000]");

  const document =
    '{"a":[18446744073709551616,{"b":[-0,1e-400,{"c":-1E+400}]}],"s":"1e400","x":-0.1,"t":true,"n":null,' +
    '"d":1234567890123456789012345678901234.000000,"e":[],"o":{}}';
  check("a whole document is written back byte for byte", stringify(parse(document)) === document, stringify(parse(document)));
  const native = JSON.parse(document) as { a: [number, { b: [number, number] }] };
  check(
    "JSON.parse is what loses them (2^64 rounded, 1e-400 to 0)",
    native.a[0] === 18446744073709552000 && native.a[1].b[1] === 0,
    native,
  );
  check("a bigint in a body is written, where JSON.stringify throws", losslessBody({ v: 10n ** 30n }) === '{"v":1000000000000000000000000000000}');
  const form = losslessBody({ a: "1 2", b: "x" }, new Headers({ "Content-Type": "application/x-www-form-urlencoded" }));
  check("a form body is still written as a form", form === "a=1+2&b=x", form);
  let invalid: unknown;
  try {
    parse("{1}");
  } catch (error) {
    invalid = error;
  }
  check("invalid JSON is a SyntaxError", invalid instanceof SyntaxError, String(invalid));
}

// ---- losslessFetch on the answers openapi-fetch parses itself.
async function fetchWrapper(): Promise<void> {
  let sent = "";
  const fake = async (request: Request): Promise<Response> => {
    sent = await request.text();
    const path = new URL(request.url).pathname;
    const json = { "Content-Type": "application/json" };
    if (path === "/api/bird/chunked") {
      // A stream: no Content-Length, so openapi-fetch would read it with text() + JSON.parse.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"name":"c","big":1844674407'));
          controller.enqueue(new TextEncoder().encode("3709551616}"));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: json });
    }
    if (path === "/api/bird/error") {
      return new Response('{"detail":[{"input":18446744073709551616}]}', { status: 422, headers: json });
    }
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  };
  const api = createClient<paths>({ baseUrl: "http://fake.invalid", fetch: losslessFetch(fake), bodySerializer: losslessBody });

  const chunked = await api.GET("/api/bird/{name}", { params: { path: { name: "chunked" } } });
  const data = chunked.data as { big?: unknown } | undefined;
  check("a chunked JSON answer (no Content-Length) is read exactly", data?.big === 2n ** 64n, data);

  const refused = await api.POST("/api/bird/", { body: { name: "x", v: 2n ** 64n } });
  check("the body went out exactly", sent === '{"name":"x","v":18446744073709551616}', sent);
  void refused;

  const failedAnswer = await api.GET("/api/bird/{name}", { params: { path: { name: "error" } } });
  const rounded = (failedAnswer.error as { detail: { input: unknown }[] }).detail[0]?.input;
  const exact = (errorBody(failedAnswer) as { detail: { input: unknown }[] }).detail[0]?.input;
  check(
    "an error answer: openapi-fetch's error is rounded, errorBody() is exact",
    rounded === 18446744073709552000 && exact === 2n ** 64n,
    [String(rounded), String(exact)],
  );

  const text = await api.GET("/api/bird/{name}", { params: { path: { name: "missing" } } });
  check("a text answer passes untouched", text.response.status === 404 && (text.error as unknown) === "Not Found", text.error);
}

// ---- Paging, through a fake /doctors serving `count` doctors.
interface Served {
  asked: URLSearchParams[];
  client: ReturnType<typeof createClient<paths>>;
}
function serve(count: number, fail?: { atSkip: number; status: number }): Served {
  const list: Doctor[] = Array.from({ length: count }, (_, n) => ({
    id: n.toString(16).padStart(24, "0"),
    name: `doctor ${n}`,
    specialty: "dermatology",
    email: null,
  }));
  const asked: URLSearchParams[] = [];
  const fake = async (request: Request): Promise<Response> => {
    const query = new URL(request.url).searchParams;
    asked.push(query);
    const skip = Number(query.get("skip"));
    const limit = Number(query.get("limit"));
    const headers = { "Content-Type": "application/json" };
    if (fail && skip === fail.atSkip) {
      return new Response(`{"detail":"down for a moment","retry":18446744073709551616}`, { status: fail.status, headers });
    }
    return new Response(stringify(list.slice(skip, skip + limit)), { status: 200, headers });
  };
  return { asked, client: createClient<paths>({ baseUrl: "http://fake.invalid", fetch: losslessFetch(fake) }) };
}
const rule: PagingRule = { offset: "skip", limit: "limit", pageSize: 10, maxOffset: 20 };
async function collect(served: Served, query: Record<string, number>, paging: PagingRule): Promise<{ sizes: number[]; ids: string[]; error: unknown }> {
  const sizes: number[] = [];
  const ids: string[] = [];
  try {
    for await (const page of pages(served.client, "/doctors", { params: { query } }, paging)) {
      sizes.push(page.length);
      ids.push(...page.map((doctor) => doctor.id));
    }
  } catch (error) {
    return { sizes, ids, error };
  }
  return { sizes, ids, error: undefined };
}
const skips = (served: Served): string => served.asked.map((query) => `${query.get("skip")}/${query.get("limit")}`).join(" ");

async function paging(): Promise<void> {
  // 35 items, pages of 10, offsets up to 20: the page at 20 is full, the next would start at 30.
  const past = serve(35);
  const limited = await collect(past, {}, rule);
  const error = limited.error;
  check(
    "a full page at the maximum offset ends with a PageLimitError, after its items",
    error instanceof PageLimitError &&
      error.maxOffset === 20 &&
      error.itemsRead === 30 &&
      error.path === "/doctors" &&
      error.message.includes("more may exist: narrow the query") &&
      limited.sizes.join() === "10,10,10" &&
      skips(past) === "0/10 10/10 20/10",
    [limited.sizes, skips(past), error instanceof Error ? error.message : error],
  );
  // The same through items(): every item given before the error.
  const givenBeforeError: string[] = [];
  let itemsError: unknown;
  try {
    for await (const doctor of items(serve(35).client, "/doctors", undefined, rule)) givenBeforeError.push(doctor.id);
  } catch (error) {
    itemsError = error;
  }
  check("items() gives the 30 items, then throws the PageLimitError", givenBeforeError.length === 30 && itemsError instanceof PageLimitError, givenBeforeError.length);

  // A short page at the maximum offset: the end, no error.
  const short = serve(25);
  const ended = await collect(short, {}, rule);
  check("a short page at the maximum offset is the last page", ended.error === undefined && ended.sizes.join() === "10,10,5", [ended.sizes, String(ended.error)]);
  // An empty page ends too.
  const even = serve(20);
  const empty = await collect(even, {}, rule);
  check("an empty page ends the pages", empty.error === undefined && empty.sizes.join() === "10,10,0" && skips(even) === "0/10 10/10 20/10", [empty.sizes, skips(even)]);

  // The caller's offset and limit win over the table's page size; the next offset is offset + items.
  const own = serve(30);
  const fromSeven = await collect(own, { skip: 7, limit: 8 }, { ...rule, maxOffset: null });
  check(
    "the caller's offset and limit: pages asked at 7, 15, 23",
    fromSeven.error === undefined && skips(own) === "7/8 15/8 23/8" && fromSeven.ids[0] === (7).toString(16).padStart(24, "0") && fromSeven.ids.length === 23,
    [skips(own), fromSeven.ids.length],
  );
  // No maximum: no error however far it goes.
  const many = serve(1000);
  const all = await collect(many, {}, { ...rule, pageSize: 100, maxOffset: null });
  check("without a maximum offset, 1,000 items in pages of the table's size 100", all.error === undefined && all.ids.length === 1000 && many.asked.length === 11, [all.ids.length, many.asked.length]);

  // A failed page: the pages before it given, then a PageError with the status and the body (exact).
  const failing = serve(35, { atSkip: 10, status: 503 });
  const broken = await collect(failing, {}, rule);
  const pageError = broken.error;
  check(
    "a page answered 503 throws a PageError with its status and body, after the pages before it",
    pageError instanceof PageError &&
      pageError.status === 503 &&
      pageError.offset === 10 &&
      (pageError.body as { retry?: unknown }).retry === 2n ** 64n &&
      broken.sizes.join() === "10",
    [broken.sizes, pageError instanceof Error ? pageError.message : pageError],
  );

  // A limit of 0 would ask the same empty page forever: refused before any call.
  const zero = serve(5);
  const refused = await collect(zero, { limit: 0 }, rule);
  check("a limit of 0 is a RangeError, nothing asked", refused.error instanceof RangeError && zero.asked.length === 0, String(refused.error));
}

numbers();
await fetchWrapper();
await paging();
console.log(`${passed} passed, ${failed.length} failed`);
if (failed.length > 0) {
  process.exit(1);
}
