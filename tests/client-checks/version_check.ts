// The TypeScript client of an old API version (issue 44, item 5): openapi-typescript's types and
// `ferrapi-client typescript-version`'s module, both from the recorded document of version
// 2026-01-15 (client/tests/documents/ferrapi_versions_2026-01-15.json, the one the Rust client
// of client/tests/tests/versions.rs is generated from). Every request of an openapi-fetch client
// made with `headers: versionHeaders` names that version; a request's own header wins.
//
// Usage: node out/version_check.js   (scripts/client-checks.sh compiles and runs it)
// Prints one line per check and `N passed, N failed`; exits 1 if any failed.

import createClient from "openapi-fetch";
import type { paths } from "./generated/versions-2026-01-15.js";
import { apiVersion, versionHeaders } from "./generated/version.js";

let passed = 0;
const failed: string[] = [];

function check(name: string, ok: boolean, seen?: unknown): void {
  if (ok) {
    passed += 1;
    console.log(`ok    ${name}`);
  } else {
    failed.push(name);
    console.log(`FAIL  ${name}: ${JSON.stringify(seen)}`);
  }
}

// A fetch double that answers as the app would for the version a request names.
const named: (string | null)[] = [];
const fake = async (request: Request): Promise<Response> => {
  const version = request.headers.get("API-Version");
  named.push(version);
  const json = { "Content-Type": "application/json", "API-Version": version ?? "2026-03-01" };
  return new Response(JSON.stringify({ id: 3, title: "Foo" }), { status: 200, headers: json });
};

check("the module names the document's version", apiVersion.header === "API-Version" && apiVersion.version === "2026-01-15" && apiVersion.released && apiVersion.deprecated === false, apiVersion);
const api = createClient<paths>({ baseUrl: "http://fake.invalid", fetch: fake, headers: versionHeaders });
const widget = await api.GET("/widget/{id}", { params: { path: { id: 3 } } });
check("the old widget is typed as the old version wrote it", widget.data?.title === "Foo", widget.data);
await api.GET("/legacy");
check("every request names 2026-01-15", named.length === 2 && named.every((version) => version === "2026-01-15"), named);
await api.GET("/legacy", { headers: { "API-Version": "2026-03-01" } });
check("a request's own header wins", named[2] === "2026-03-01", named);

console.log(`${passed} passed, ${failed.length} failed`);
if (failed.length > 0) {
  process.exit(1);
}
