// client/typescript/ferrapi-fetch.ts against the running service (issue 43, item 6): an
// openapi-fetch client with its two options (`fetch: losslessFetch()`, `bodySerializer:
// losslessBody`) sends and reads back a bird's numbers exactly, where the same client without them
// rounds them; `items`/`pages` turn the clinic's doctors across pages with the page size of the
// paging table (generated/paging.ts, written by `ferrapi-client typescript-paging` from the
// service's document), keeping the caller's filter; a page the service refuses throws a
// `PageError` with its status and body. The whole file is type-checked by `tsc --strict` first:
// the items are typed as the document's `Doctor`.
//
// Usage: node out/ferrapi_fetch_check.js BASE_URL   (scripts/client-checks.sh compiles and runs it)
// Prints one line per check and `N passed, N failed`; exits 1 if any failed.

import createClient from "openapi-fetch";
import type { components, paths } from "./generated/resource-api.js";
import {
  LosslessNumber,
  PageError,
  isLosslessNumber,
  items,
  losslessBody,
  losslessFetch,
  pages,
  stringify,
} from "./generated/ferrapi-fetch.js";
import { paging } from "./generated/paging.js";

type Doctor = components["schemas"]["Doctor"];

const base = process.argv[2];
if (!base) {
  console.error("usage: node out/ferrapi_fetch_check.js BASE_URL");
  process.exit(2);
}
// Every URL the exact client asked for, to count the pages.
const asked: URL[] = [];
const counting = (input: Request, init?: RequestInit): Promise<Response> => {
  asked.push(new URL(input.url));
  return fetch(input, init);
};
const api = createClient<paths>({ baseUrl: base, fetch: losslessFetch(counting), bodySerializer: losslessBody });
const plain = createClient<paths>({ baseUrl: base });

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
const unique = (prefix: string): string => `${prefix}-${process.pid}-${Date.now().toString(36)}`;
// The text a number was read as, or a note of what it was instead.
function text(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (isLosslessNumber(value)) return `LosslessNumber(${value.toString()})`;
  return `${typeof value} ${String(value)}`;
}

async function exactNumbers(): Promise<void> {
  const name = unique("exact");
  const bird = {
    name,
    big: 2n ** 64n,
    huge: new LosslessNumber("1e400"),
    forty: new LosslessNumber("1234567890123456789012345678901234.000000"),
    neg: -0.1,
    precise: new LosslessNumber("0.1000000000000000055511151231257827"),
    nested: [new LosslessNumber("-1E+400"), { tiny: new LosslessNumber("1e-400"), zero: -0, safe: 9007199254740991 }],
  };
  const created = await api.POST("/api/bird/", { body: bird });
  const id = (created.data as { id?: unknown } | undefined)?.id;
  check("POST /api/bird/ stores a bird sent with bigint and LosslessNumber values", typeof id === "string", created.error);

  // What the service answers, byte for byte: every number as it was sent.
  const raw = await (await fetch(`${base}/api/bird/${encodeURIComponent(name)}`)).text();
  const expected =
    `{"_id":"${String(id)}","name":"${name}","big":18446744073709551616,"huge":1e400,` +
    `"forty":1234567890123456789012345678901234.000000,"neg":-0.1,"precise":0.1000000000000000055511151231257827,` +
    `"nested":[-1E+400,{"tiny":1e-400,"zero":-0,"safe":9007199254740991}]}`;
  check("the service kept every number as losslessBody wrote it", raw === expected, raw);

  const read = await api.GET("/api/bird/{name}", { params: { path: { name } } });
  const found = (read.data ?? {}) as Record<string, unknown>;
  check("2^64 reads back as the bigint 18446744073709551616", found.big === 2n ** 64n, text(found.big));
  check(
    "1e400 reads back as a LosslessNumber with its text",
    isLosslessNumber(found.huge) && found.huge.toString() === "1e400",
    text(found.huge),
  );
  check(
    "a 40-digit decimal reads back with its text",
    isLosslessNumber(found.forty) && found.forty.toString() === "1234567890123456789012345678901234.000000",
    text(found.forty),
  );
  check("-0.1 reads back as the number -0.1", found.neg === -0.1 && String(found.neg) === "-0.1", text(found.neg));
  check(
    "34 significant digits read back with their text",
    isLosslessNumber(found.precise) && found.precise.toString() === "0.1000000000000000055511151231257827",
    text(found.precise),
  );
  check("the answer, written again, is the service's text byte for byte", stringify(read.data) === raw, stringify(read.data));

  // The same client without the two options: what this module is for.
  const rounded = await plain.GET("/api/bird/{name}", { params: { path: { name } } });
  const lossy = (rounded.data ?? {}) as Record<string, unknown>;
  check(
    "without them, openapi-fetch rounds 2^64 to 18446744073709552000 and 1e400 to Infinity",
    lossy.big === 18446744073709552000 && lossy.huge === Infinity,
    [text(lossy.big), text(lossy.huge)],
  );

  // 40 significant digits are more than the store keeps (34): refused, the input named exactly as
  // sent (JSON.stringify cannot even write it: a number would be 1.2345678901234568e+33).
  const tooPrecise = "1234567890123456789012345678901234.567891";
  const refused = await api.POST("/api/bird/", {
    body: { name: unique("precise"), v: new LosslessNumber(tooPrecise) },
  });
  const item = refused.error?.detail?.[0];
  check(
    "40 significant digits are sent exactly: the 422 names the input as sent",
    refused.response.status === 422 && item?.type === "number_too_precise" && item.input === tooPrecise,
    refused.error,
  );
}

async function doctorPages(): Promise<void> {
  const name = unique("paged");
  const ids: string[] = [];
  for (let n = 0; n < 45; n += 1) {
    const email = `d${String(n).padStart(2, "0")}@example.org`;
    const created = await api.POST("/doctors", { body: { name, specialty: "dermatology", email } });
    if (created.data) ids.push(created.data.id);
  }
  // Same name, another specialty: the filter must keep these out of every page.
  const others: string[] = [];
  for (let n = 0; n < 3; n += 1) {
    const created = await api.POST("/doctors", { body: { name, specialty: "surgery", email: null } });
    if (created.data) others.push(created.data.id);
  }
  check("45 + 3 doctors created", ids.length === 45 && others.length === 3, [ids.length, others.length]);

  // The caller's limit: five pages of 10, 10, 10, 10 and 5, every one asked with the filter.
  asked.length = 0;
  const seen: Doctor[] = [];
  for await (const doctor of items(
    api,
    "/doctors",
    { params: { query: { name, specialty: "dermatology", limit: 10 } } },
    paging["/doctors"],
  )) {
    const id: string = doctor.id; // typed as the document's Doctor
    // @ts-expect-error a Doctor has no `price`: the items are typed, not `any`
    void doctor.price;
    void id;
    seen.push(doctor);
  }
  const pageAsks = asked.filter((url) => url.pathname === "/doctors");
  check(
    "items() gives all 45 doctors in order, across pages of the caller's limit",
    seen.map((d) => d.id).join() === ids.join() && seen.every((d) => d.specialty === "dermatology"),
    seen.map((d) => d.email),
  );
  check(
    "five pages asked at skip 0, 10, 20, 30, 40, each with limit 10 and the filter",
    pageAsks.map((url) => url.searchParams.get("skip")).join() === "0,10,20,30,40" &&
      pageAsks.every(
        (url) =>
          url.searchParams.get("limit") === "10" &&
          url.searchParams.get("name") === name &&
          url.searchParams.get("specialty") === "dermatology",
      ),
    pageAsks.map((url) => url.search),
  );

  // No limit given: the table's page size (the limit's maximum, 100): one short page.
  asked.length = 0;
  const sizes: number[] = [];
  let total = 0;
  for await (const page of pages(api, "/doctors", { params: { query: { name, specialty: "dermatology" } } }, paging["/doctors"])) {
    sizes.push(page.length);
    total += page.length;
  }
  const defaultAsks = asked.filter((url) => url.pathname === "/doctors");
  check(
    `pages() without a limit asks the table's page size (${paging["/doctors"].pageSize}) and stops at the short page`,
    sizes.join() === "45" &&
      total === 45 &&
      defaultAsks.length === 1 &&
      defaultAsks[0]?.searchParams.get("limit") === String(paging["/doctors"].pageSize),
    [sizes, defaultAsks.map((url) => url.search)],
  );

  // A page the service refuses: a PageError with its status and body.
  let thrown: unknown;
  try {
    for await (const page of pages(api, "/doctors", { params: { query: { name, skip: 10001 } } }, paging["/doctors"])) {
      void page;
    }
  } catch (error) {
    thrown = error;
  }
  const detail = thrown instanceof PageError ? (thrown.body as { detail?: { type?: string }[] }).detail : undefined;
  check(
    "a page answered 422 throws a PageError holding the status and the body",
    thrown instanceof PageError && thrown.status === 422 && detail?.[0]?.type === "less_than_equal",
    thrown instanceof Error ? thrown.message : thrown,
  );

  for (const id of [...ids, ...others]) {
    await api.DELETE("/doctors/{doctor_id}", { params: { path: { doctor_id: id } } });
  }
}

await exactNumbers();
await doctorPages();
console.log(`${passed} passed, ${failed.length} failed`);
if (failed.length > 0) {
  process.exit(1);
}
