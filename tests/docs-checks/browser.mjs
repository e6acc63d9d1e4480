// Opens /docs (Swagger UI) and /redoc (ReDoc) of a running service in headless Chromium, with
// every request to a host other than 127.0.0.1 blocked, and checks that each operation of the
// service's OpenAPI document is rendered, that "Try it out" works against the same service, and
// that nothing was blocked, refused by the Content-Security-Policy or thrown. Saves a screenshot
// of each page.
//
// Usage: node browser.mjs BASE_URL OUT_DIR      (scripts/docs-checks.sh runs it)
// Env:   CHROMIUM (default /usr/bin/chromium)

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node browser.mjs BASE_URL OUT_DIR");
  process.exit(2);
}
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const doc = await (await fetch(`${base}/openapi.json`)).json();
const operations = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (METHODS.includes(method)) operations.push({ method, path, op });
  }
}
if (operations.length === 0) {
  console.error("browser: the document has no operation");
  process.exit(1);
}

// A fresh profile for each run, removed however the run ends.
const userDataDir = mkdtempSync(join(tmpdir(), "docs-checks-chromium-"));
process.on("exit", () => rmSync(userDataDir, { recursive: true, force: true }));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

const failures = [];
const blocked = [];
await context.route("**/*", (route) => {
  const url = new URL(route.request().url());
  if (url.protocol === "data:" || url.protocol === "blob:" || url.hostname === "127.0.0.1") {
    return route.continue();
  }
  blocked.push(url.href);
  return route.abort("blockedbyclient");
});

async function open(path) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => {
    const text = msg.text();
    if (msg.type() === "error" || /Content Security Policy/i.test(text)) {
      problems.push(`console ${msg.type()}: ${text}`);
    }
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) => {
    const failure = req.failure();
    problems.push(`request failed: ${req.url()} (${failure ? failure.errorText : "?"})`);
  });
  const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
  if (!response || response.status() !== 200) {
    problems.push(`${path}: status ${response ? response.status() : "none"}`);
  }
  return { page, problems };
}

function report(name, started, problems, missing) {
  for (const p of problems) failures.push(`${name}: ${p}`);
  for (const m of missing) failures.push(`${name}: not rendered: ${m}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `browser: ${name}: ${operations.length - missing.length}/${operations.length} operations rendered, ` +
      `${problems.length} problem(s), ${seconds} s`,
  );
}

// ---- Swagger UI
{
  const started = Date.now();
  const { page, problems } = await open("/docs");
  await page.waitForSelector(".opblock", { timeout: 30000 }).catch(() => {});
  const missing = [];
  for (const { method, path } of operations) {
    const selector = `.opblock-${method} .opblock-summary-path[data-path="${path}"]`;
    if ((await page.locator(selector).count()) === 0) missing.push(`${method.toUpperCase()} ${path}`);
  }
  // "Try it out" on the first GET without required parameters, against this same service.
  const target = operations.find(
    ({ method, op }) => method === "get" && !(op.parameters || []).some((p) => p.required),
  );
  if (target) {
    const block = page
      .locator(`.opblock-get:has(.opblock-summary-path[data-path="${target.path}"])`)
      .first();
    await block.locator(".opblock-summary").click();
    await block.locator("button.try-out__btn").click();
    await block.locator("button.execute").click();
    const status = block.locator(".live-responses-table tr.response .response-col_status").first();
    await status.waitFor({ timeout: 15000 }).catch(() => {});
    const text = (await status.textContent().catch(() => "")) || "";
    if (!/^\s*200/.test(text)) {
      problems.push(`Try it out on GET ${target.path}: status cell "${text.trim()}", expected 200`);
    } else {
      console.log(`browser: /docs: Try it out on GET ${target.path} answered 200`);
    }
    await page.keyboard.press("Home");
  } else {
    problems.push("no GET operation without required parameters to try out");
  }
  await page.screenshot({ path: join(outDir, "docs.png"), fullPage: false });
  report("/docs", started, problems, missing);
  await page.close();
}

// ---- ReDoc
{
  const started = Date.now();
  const { page, problems } = await open("/redoc");
  await page.waitForSelector("[id^='operation/']", { timeout: 30000 }).catch(() => {});
  const missing = [];
  for (const { method, path, op } of operations) {
    const id = `operation/${op.operationId}`;
    const found = await page.evaluate((id) => document.getElementById(id) !== null, id);
    if (!found) missing.push(`${method.toUpperCase()} ${path} (#${id})`);
  }
  await page.screenshot({ path: join(outDir, "redoc.png"), fullPage: false });
  report("/redoc", started, problems, missing);
  await page.close();
}

await context.close();

for (const url of blocked) failures.push(`a request left 127.0.0.1 and was blocked: ${url}`);
if (failures.length > 0) {
  for (const f of failures) console.error(`browser: FAIL ${f}`);
  process.exit(1);
}
console.log(`browser: screenshots in ${outDir}/docs.png and ${outDir}/redoc.png`);
