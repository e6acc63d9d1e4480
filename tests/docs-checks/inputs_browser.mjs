// Opens /docs (Swagger UI) of the request-inputs example (examples/inputs.rs) in headless
// Chromium, every request to a host other than 127.0.0.1 blocked, and checks the security flow
// a reader would try: "Try it out" on the protected GET /users/me answers 401 before
// authorizing; "Authorize" with the example's credentials (OAuth2's password flow, posted to
// /token by Swagger UI itself), then "Try it out" answers 200; a file chosen in the upload form's
// file picker is uploaded (200, its name and size in the answer). Saves a screenshot.
//
// Usage: node inputs_browser.mjs BASE_URL OUT_DIR      (scripts/docs-checks.sh runs it)
// Env:   CHROMIUM (default /usr/bin/chromium)

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node inputs_browser.mjs BASE_URL OUT_DIR");
  process.exit(2);
}

const userDataDir = mkdtempSync(join(tmpdir(), "docs-checks-chromium-"));
process.on("exit", () => rmSync(userDataDir, { recursive: true, force: true }));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const blocked = [];
await context.route("**/*", (route) => {
  const url = new URL(route.request().url());
  if (url.protocol === "data:" || url.protocol === "blob:" || url.hostname === "127.0.0.1") {
    return route.continue();
  }
  blocked.push(url.href);
  return route.abort("blockedbyclient");
});

const failures = [];
const page = await context.newPage();
page.on("pageerror", (err) => failures.push(`page error: ${err.message}`));
await page.goto(`${base}/docs`, { waitUntil: "load" });
await page.waitForSelector(".opblock", { timeout: 30000 });

/// The operation block of METHOD PATH, expanded, with "Try it out" on.
async function tryOut(method, path) {
  const block = page
    .locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`)
    .first();
  if (!(await block.locator("button.try-out__btn").isVisible().catch(() => false))) {
    await block.locator(".opblock-summary").click();
  }
  const tryButton = block.locator("button.try-out__btn");
  if ((await tryButton.textContent()).trim() === "Try it out") await tryButton.click();
  return block;
}

/// Execute the block's request; the status cell of the live response and its body.
async function execute(block) {
  await block.locator("button.execute").click();
  const status = block.locator(".live-responses-table tr.response .response-col_status").first();
  await status.waitFor({ timeout: 15000 });
  const text = ((await status.textContent()) || "").trim();
  const answer = ((await block.locator(".live-responses-table .response-col_description pre").first().textContent().catch(() => "")) || "");
  await block.locator("button.btn-clear").click().catch(() => {});
  return { status: text, answer };
}

function expect(name, ok, detail) {
  if (ok) console.log(`inputs browser: ok   ${name}`);
  else failures.push(`${name}: ${detail}`);
}

// 1. Without authorizing: 401.
{
  const block = await tryOut("get", "/users/me");
  const { status } = await execute(block);
  expect("GET /users/me without authorizing is 401", /^401/.test(status), `status "${status}"`);
}

// 2. Authorize (password flow), then 200.
{
  await page.locator(".auth-wrapper button.authorize").first().click();
  await page.locator("#oauth_username").fill("alice");
  await page.locator("#oauth_password").fill("wonderland");
  await page.locator(".auth-btn-wrapper button.authorize").first().click();
  await page.locator(".auth-btn-wrapper button", { hasText: "Logout" }).first().waitFor({ timeout: 15000 });
  await page.locator(".auth-btn-wrapper button.btn-done").first().click();
  const block = await tryOut("get", "/users/me");
  const { status, answer } = await execute(block);
  expect(
    "Authorize as alice, then GET /users/me is 200",
    /^200/.test(status) && answer.includes("Alice Liddell"),
    `status "${status}", answer ${answer}`,
  );
}

// 3. The file picker uploads a file.
{
  const block = await tryOut("post", "/upload");
  await block.locator('input[type="file"]').first().setInputFiles({
    name: "picked.bin",
    mimeType: "application/octet-stream",
    buffer: Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256)),
  });
  const { status, answer } = await execute(block);
  expect(
    "a file chosen in the picker is uploaded",
    /^200/.test(status) && answer.includes("picked.bin") && answer.includes("1000"),
    `status "${status}", answer ${answer}`,
  );
}

await page.screenshot({ path: join(outDir, "inputs-docs.png"), fullPage: false });
await context.close();
for (const url of blocked) failures.push(`a request left 127.0.0.1 and was blocked: ${url}`);
if (failures.length > 0) {
  for (const f of failures) console.error(`inputs browser: FAIL ${f}`);
  process.exit(1);
}
console.log(`inputs browser: screenshot in ${outDir}/inputs-docs.png`);
