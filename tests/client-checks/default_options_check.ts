// A TypeScript client of the service, as a front-end team would write one: types generated from
// the live /openapi.json by openapi-typescript with its default options
// (generated/resource-api-defaults.ts), calls made with openapi-fetch, and the whole file
// type-checked with `tsc --strict` before it runs against the service.
//
// What it proves: an optional field of a body (`description`, `tax` of `Item`) is optional in the
// generated types, so a body holding only the required fields type-checks, as it does against
// FastAPI's document. A `"default": null` in the document made openapi-typescript type those
// fields as required (issue 32). The `@ts-expect-error` lines fail the compilation if a required
// field stops being required or a field of the answer loses its type.
//
// Usage: node out/default_options_check.js BASE_URL   (scripts/client-checks.sh compiles and runs it)

import createClient from "openapi-fetch";
import type { components, paths } from "./generated/resource-api-defaults.js";

type Item = components["schemas"]["Item"];

const base = process.argv[2];
if (!base) {
  console.error("usage: node out/default_options_check.js BASE_URL");
  process.exit(2);
}
const client = createClient<paths>({ baseUrl: base });
const failures: string[] = [];
function check(what: string, ok: boolean, got: unknown): void {
  if (!ok) failures.push(`${what}: got ${JSON.stringify(got)}`);
}

// The required fields alone: no description, no tax.
const bare: Item = { name: "Foo", price: 35.4 };
const created = await client.POST("/item", { body: bare });
check("POST /item with the required fields only answers 200", created.response.status === 200, created.response.status);
const answer = created.data;
check("POST /item echoes the name", answer?.name === "Foo", answer);
check("POST /item has no price_with_tax without a tax", answer?.price_with_tax === undefined, answer);

// Every field, the optional ones given, one of them null.
const full = await client.POST("/item", {
  body: { name: "Bar", description: null, price: 50.0, tax: 5.0 },
});
const withTax: number | null | undefined = full.data?.price_with_tax;
check("POST /item with a tax adds it", withTax === 55.0, full.data);

// A path parameter and an optional query parameter: the query may be left out.
const updated = await client.PUT("/item/{item_id}", {
  params: { path: { item_id: 7 } },
  body: { name: "Baz", price: 1.5 },
});
check("PUT /item/{item_id} without q echoes the id", updated.data?.item_id === 7, updated.data);

// An invalid body is refused by the type checker before it is ever sent.
// @ts-expect-error `name` is required in Item
const missingName: Item = { price: 1 };
// @ts-expect-error `price` is a number
const textPrice: Item = { name: "Foo", price: "1" };
void missingName;
void textPrice;

if (failures.length > 0) {
  for (const failure of failures) console.error(`typescript client: ${failure}`);
  process.exit(1);
}
console.log("typescript client: 5 checks passed");
