// End-to-end test of the playground page in headless Chromium.
//
// Needs MENAGERIE_URL (a running server; `cargo xtask test` starts one over
// the fixtures) and Debian's Chromium (scripts/install-browser-test.sh).
// Optional: CHROMIUM (browser path), E2E_SCREENSHOT (a PNG path to write),
// MENAGERIE_BOOK (the built book's directory, the server started with
// `--docs-url` pointing at its index: the book test opens its pages).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const base = process.env.MENAGERIE_URL;
const book = process.env.MENAGERIE_BOOK;

async function launch() {
  const profile = await mkdtemp(join(tmpdir(), "menagerie-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return { context, profile };
}

// Every image of the page loaded (decoded, with a width); returns how many.
async function imagesLoad(page, what) {
  await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 60_000 });
  const all = await page.$$eval("img", (els) => els.map((e) => ({ src: e.getAttribute("src"), w: e.naturalWidth })));
  assert.deepEqual(all.filter((i) => !(i.w > 0)).map((i) => i.src), [], `${what}: every image loads`);
  return all.length;
}

test("the playground links to the book, whose index and endpoint pages show their images", { skip: !book && "MENAGERIE_BOOK not set", timeout: 120_000 }, async () => {
  const index = pathToFileURL(join(book, "index.html")).href;
  const { context, profile } = await launch();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push("page error: " + e.message));
    await page.goto(base + "/");
    assert.equal(await page.getAttribute("a.book-link", "href"), index, "the playground links to the book");

    await page.goto(index);
    assert.match(await page.textContent("main h1"), /Menagerie/);
    assert.ok(await imagesLoad(page, "index") >= 6, "the index shows a strip of previews");
    // The sidebar lists the endpoint pages.
    assert.ok(await page.locator('a[href$="endpoints/canvas-misc.html"]').count() >= 1, "endpoint pages listed");

    await page.goto(pathToFileURL(join(book, "endpoints", "canvas-misc.html")).href);
    assert.match(await page.textContent("main"), /\/canvas\/misc\/circle/);
    assert.ok(await imagesLoad(page, "canvas-misc") >= 20, "one preview per misc image");
    await page.goto(pathToFileURL(join(book, "benchmarks.html")).href);
    assert.ok(await imagesLoad(page, "benchmarks") >= 3, "the charts");
    assert.deepEqual(problems, [], "no script errors");
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test("the playground shows a gallery of previews and runs a JSON call and an image call", { timeout: 300_000 }, async () => {
  assert.ok(base, "MENAGERIE_URL is set");
  const { context, profile } = await launch();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push("page error: " + e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push("console error: " + m.text());
    });

    await page.goto(base + "/");
    // The endpoint list comes from /openapi.json.
    const rgb = page.locator('button.endpoint[data-path="/canvas/rgb"]');
    await rgb.waitFor();
    assert.ok((await page.locator("button.endpoint").count()) >= 5, "endpoints listed");

    // The gallery: every operation that names a preview has a card whose
    // image loads (each preview is drawn the first time it is asked for).
    const spec = await (await fetch(base + "/openapi.json")).json();
    const withPreview = Object.entries(spec.paths)
      .filter(([, item]) => item.get && item.get["x-preview"])
      .map(([path]) => path)
      .sort();
    assert.ok(withPreview.length >= 40, `${withPreview.length} endpoints with previews`);
    const imageOps = Object.entries(spec.paths)
      .filter(([path, item]) => !path.includes("{") && item.get &&
        Object.keys(item.get.responses["200"].content || {}).some((t) => t.startsWith("image/")))
      .map(([path]) => path)
      .sort();
    assert.deepEqual(withPreview, imageOps, "every image endpoint has a preview");
    // The cards, whose path parameters pick the image, list theirs in
    // `x-previews`: every rank template, welcome template and background.
    const listed = Object.values(spec.paths).flatMap((item) => (item.get && item.get["x-previews"]) || []);
    const listedPreviews = listed.map((e) => e.preview);
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) assert.ok(listedPreviews.includes(`/previews/rankcard/${n}.png`), `rank ${n}`);
    for (const n of [1, 2, 3, 4, 5, 6, 7]) assert.ok(listedPreviews.includes(`/previews/welcome/${n}.png`), `welcome ${n}`);
    assert.equal(listedPreviews.filter((p) => p.startsWith("/previews/welcome-background/")).length, 13, "13 backgrounds");
    const previews = [
      ...withPreview.map((path) => spec.paths[path].get["x-preview"]),
      ...listedPreviews,
    ].sort();
    await page.locator("#gallery .preview").first().waitFor();
    const cards = await page.$$eval("#gallery .preview", (els) => els.map((e) => e.dataset.preview).sort());
    assert.deepEqual(cards, previews, "one gallery card per preview");
    // The operators' templates the server was given (`--templates`) are
    // in the gallery too, each with its own preview.
    const custom = (process.env.MENAGERIE_CUSTOM_TEMPLATES || "").split(",").filter(Boolean);
    for (const name of custom) {
      assert.ok(cards.some((c) => c.startsWith(`/previews/custom/${name}.`)), `operator's template ${name} in the gallery`);
    }
    const headings = await page.$$eval("#gallery h3", (els) => els.map((e) => e.textContent));
    for (const h of ["rank cards", "welcome cards", "welcome backgrounds"]) assert.ok(headings.includes(h), h);
    await page.waitForFunction(
      () => [...document.querySelectorAll("#gallery img")].every((i) => i.complete),
      null,
      { timeout: 240_000, polling: 500 },
    );
    const broken = await page.$$eval("#gallery .preview", (els) =>
      els.filter((e) => !(e.querySelector("img").naturalWidth > 0)).map((e) => e.dataset.preview));
    assert.deepEqual(broken, [], "every preview image loads");
    // A card fills the try-it form.
    await page.click('#gallery .preview[data-path="/canvas/misc/circle"]');
    assert.equal(await page.textContent("#ep-path"), "/canvas/misc/circle");
    assert.ok((await page.inputValue("#param-avatar")).length > 0, "avatar pre-filled");
    // A rank or welcome card's preview fills its path parameters too.
    await page.click("#show-gallery");
    await page.click('#gallery .preview[data-preview="/previews/rankcard/3.png"]');
    assert.equal(await page.textContent("#ep-path"), "/premium/rankcard/{template}");
    assert.equal(await page.inputValue("#param-template"), "3");
    assert.match(await page.inputValue("#url"), /\/premium\/rankcard\/3\?/);
    await page.click("#show-gallery");
    await page.click('#gallery .preview[data-preview="/previews/welcome-background/sunset.png"]');
    assert.equal(await page.textContent("#ep-path"), "/welcome/img/{template}/{background}");
    assert.equal(await page.inputValue("#param-template"), "6");
    assert.equal(await page.inputValue("#param-background"), "sunset");
    assert.match(await page.inputValue("#url"), /\/welcome\/img\/6\/sunset/);

    // JSON call.
    await rgb.click();
    await page.fill("#param-hex", "4B007D");
    assert.equal(await page.inputValue("#url"), base + "/canvas/rgb?hex=4B007D");
    await page.click("#send");
    await page.locator("#result-json").waitFor({ state: "visible" });
    assert.match(await page.textContent("#status"), /^200/);
    assert.deepEqual(JSON.parse(await page.textContent("#result-json")), { r: 75, g: 0, b: 125 });
    assert.match(await page.textContent("#meta"), /application\/json/);

    // Image call.
    await page.click('button.endpoint[data-path="/canvas/colorviewer"]');
    await page.fill("#param-hex", "FF8800");
    await page.click("#send");
    const img = page.locator("#result-image");
    await img.waitFor({ state: "visible" });
    await page.waitForFunction(() => document.getElementById("result-image").naturalWidth > 0);
    const seen = await page.evaluate(() => {
      const i = document.getElementById("result-image");
      const c = document.createElement("canvas");
      c.width = i.naturalWidth;
      c.height = i.naturalHeight;
      const ctx = c.getContext("2d");
      ctx.drawImage(i, 0, 0);
      return { w: i.naturalWidth, h: i.naturalHeight, px: Array.from(ctx.getImageData(128, 128, 1, 1).data) };
    });
    assert.deepEqual(seen, { w: 256, h: 256, px: [255, 136, 0, 255] });
    assert.match(await page.textContent("#status"), /^200/);
    assert.match(await page.textContent("#meta"), /image\/png · .* · 256×256/);

    // An error is shown as JSON too.
    await page.fill("#param-hex", "nope");
    await page.click("#send");
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("400"));
    assert.match(await page.textContent("#result-json"), /"error"/);
    // The 400 is logged by Chromium as a failed resource load; nothing else may be.
    const unexpected = problems.filter((p) => !/status of 400/.test(p));
    if (process.env.E2E_SCREENSHOT) {
      await page.fill("#param-hex", "6246EA");
      await page.click("#send");
      await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("200"));
      await page.screenshot({ path: process.env.E2E_SCREENSHOT, fullPage: true });
    }
    assert.deepEqual(unexpected, [], "no script errors or CSP violations");
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
