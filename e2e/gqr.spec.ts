import { expect, test, type Browser } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

// The tiny BERT made by `npm run gen:model` (the build generates it): real inference in the browser workers.

/** Draws an exported SVG in a page of its own and returns the texts that stick out of the image or overlap another legend text. */
async function exportedSvgProblems(browser: Browser, svg: string): Promise<string[]> {
  const page = await browser.newPage();
  try {
    await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
    return await page.evaluate(() => {
      const root = document.querySelector('body > svg') as SVGSVGElement;
      const frame = root.getBoundingClientRect();
      const texts = [...root.querySelectorAll<SVGTextElement>(':scope > text')].map((t) => ({ text: t.textContent ?? '', box: t.getBoundingClientRect() }));
      const problems: string[] = [];
      for (const { text, box } of texts) {
        if (box.left < frame.left || box.right > frame.right + 0.5 || box.top < frame.top || box.bottom > frame.bottom + 0.5) problems.push(`outside the image: ${text}`);
      }
      texts.forEach((a, i) =>
        texts.slice(i + 1).forEach((b) => {
          const apart = a.box.right <= b.box.left || b.box.right <= a.box.left || a.box.bottom <= b.box.top || b.box.bottom <= a.box.top;
          if (!apart) problems.push(`overlap: ${a.text} / ${b.text}`);
        }),
      );
      return problems;
    });
  } finally {
    await page.close();
  }
}


test('an α sweep runs from the GQR lab, is charted against the baselines, and a query can be inspected', async ({ page, browser }) => {
  await loadAndEmbedSample(page);
  await page.goto('/#/gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  // The default grid: 11 values of α × per-step / fixed target.
  await expect(page.getByLabel('Grid mixtureAlpha')).toHaveValue('0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 1.5');
  await expect(page.getByRole('alert')).toContainText('mixtureAlpha=1.5: mixture_alpha must be between 0 and 1');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1');
  await page.getByLabel('Sweep name').fill('Meridian α');
  await page.getByRole('button', { name: /^Run sweep: 22 grid points × 54 queries/ }).click();

  const results = page.getByRole('region', { name: 'Sweep results' });
  await expect(results.getByRole('heading', { name: 'Meridian α' })).toBeVisible();
  await expect(page.getByTestId('sweep-summary')).toContainText('22 grid points × 54 queries');

  // The chart: two lines (per-step, fixed) of 11 points each, four reference lines, the best point ringed.
  const chart = page.getByTestId('alpha-chart');
  await expect(chart.locator('.recharts-line')).toHaveCount(2);
  await expect(chart.locator('.recharts-line-dots circle')).toHaveCount(22);
  await expect(chart.locator('.recharts-reference-line')).toHaveCount(4);
  await expect(chart.locator('.recharts-reference-dot')).toHaveCount(1);
  const legend = page.getByRole('list', { name: 'Legend' });
  for (const label of ['GQR target per-step', 'GQR target fixed', /primary only \(Dense tiny-bert\): 0\.\d{4}/, /complementary only \(BM25 .*\): 0\.\d{4}/, /RRF k=60: 0\.\d{4}/, /best CC \(w=[\d.]+\): 0\.\d{4}/]) {
    await expect(legend).toContainText(label);
  }
  await expect(page.getByTestId('best-point')).toContainText(/Best: nDCG@10 0\.\d{4} at α = /);

  // Hovering a point shows the exact values at that α.
  const firstDot = chart.locator('.recharts-line-dots circle').first();
  await firstDot.hover({ force: true });
  const tooltip = chart.locator('.chart-tooltip');
  await expect(tooltip).toContainText('α = 0');
  await expect(tooltip).toContainText(/GQR target per-step\s*0\.\d{4}/);

  // Wins / ties / losses against the primary, one row per grid point (α = 0 never moves: all ties).
  const wins = page.getByRole('table', { name: 'Wins, ties and losses against the primary' });
  await expect(page.getByTestId('wins-primary')).toHaveText(/^primary only: 0\.\d{4} \(what wins, ties and losses are counted against\)$/);
  await expect(wins.locator('tbody tr')).toHaveCount(22);
  await expect(wins.locator('tbody tr').first()).toContainText(/α 0 · target per-step\s*0\.\d{4}\s*0\s*54\s*0/);
  // The shared table: sort by wins (most first), filter the grid points by name.
  await wins.getByRole('button', { name: 'wins', exact: true }).click();
  await expect(wins.getByRole('columnheader', { name: /^wins ▼$/ })).toHaveAttribute('aria-sort', 'descending');
  const winsColumn = await wins.locator('tbody tr td:nth-child(3)').allTextContents();
  expect(winsColumn.map(Number)).toEqual([...winsColumn.map(Number)].sort((a, b) => b - a));
  await page.getByLabel('Filter grid points').fill('target fixed');
  await expect(wins.locator('tbody tr')).toHaveCount(11);
  await page.getByLabel('Filter grid points').fill('');
  // The selected point's queries filter by their change.
  const perQuery = page.getByRole('table', { name: 'Per-query values of the selected grid point' });
  await perQuery.getByLabel('Filter change').fill('> 0');
  const changes = await perQuery.locator('tbody tr td:nth-child(5)').allTextContents();
  expect(changes.every((c) => Number(c) > 0)).toBe(true);
  await perQuery.getByLabel('Filter change').fill('');
  const alphaOne = (await wins.locator('tbody tr', { hasText: 'α 1 · target per-step' }).locator('td').nth(1).textContent())!;

  // The CSV export holds every point and the baselines.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await (await download).path();
  const text = (await import('node:fs')).readFileSync(csv, 'utf8');
  expect(text.split('\r\n').filter((l) => l.startsWith('gqr,'))).toHaveLength(22);
  expect(text).toContain('baseline,RRF k=60');
  const svgDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export SVG' }).click();
  expect((await svgDownload).suggestedFilename()).toMatch(/\.svg$/);
  const svgText = (await import('node:fs')).readFileSync(await (await svgDownload).path(), 'utf8');
  expect(svgText).toContain('Meridian α — nDCG@10 vs α (mixtureAlpha)');
  expect(svgText.match(/class="recharts-dot recharts-line-dot"/g)).toHaveLength(22);
  // The legend is part of the image: every label inside it, none on top of another (long labels wrap), also from a
  // narrow window.
  expect(await exportedSvgProblems(browser, svgText)).toEqual([]);
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: 880, height: viewport.height });
  const narrowDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export SVG' }).click();
  const narrowSvg = (await import('node:fs')).readFileSync(await (await narrowDownload).path(), 'utf8');
  expect(await exportedSvgProblems(browser, narrowSvg)).toEqual([]);
  await page.setViewportSize(viewport);
  // The two lines differ in their dash pattern, not only in colour.
  const dashes = await chart.locator('.recharts-line-curve').evaluateAll((paths) => paths.map((p) => p.getAttribute('stroke-dasharray') ?? 'solid'));
  expect(new Set(dashes).size).toBe(2);
  const pngDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PNG' }).click();
  const png = (await import('node:fs')).readFileSync(await (await pngDownload).path());
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(10_000);

  // Inspect one query at the selected (best) point.
  await page.getByRole('button', { name: 'Inspect q01' }).click();
  const inspector = page.getByRole('region', { name: 'Query inspector' });
  await expect(inspector).toContainText('lighthouse keeper rescues shipwrecked sailors in a storm');
  await expect(page.getByTestId('inspector-path')).toContainText('single-vector cosine');
  await expect(page.getByTestId('inspector-path')).toContainText(/query and all \d+ candidates have single-vector embeddings/);
  const pool = inspector.getByRole('table', { name: 'Candidate pool' });
  expect(await pool.locator('tbody tr').count()).toBeGreaterThanOrEqual(10);
  const rankChart = inspector.getByRole('figure', { name: 'Candidate ranks over the optimisation steps' });
  await expect(rankChart.locator('.recharts-line').first()).toBeVisible();
  // Qrels relevance in the pool: q01's judged documents are marked, and the facts count them.
  await expect(page.getByTestId('inspector-qrels')).toContainText(/\d+ relevant document\(s\) judged; \d+ in the pool, \d+ in the final top \d+\./);
  const relevantRows = pool.locator('tbody tr.relevant');
  expect(await relevantRows.count()).toBeGreaterThan(0);
  await expect(relevantRows.first().getByTestId('pool-qrels')).toHaveText(/^✓ rel [1-9]$/);
  await expect(pool.locator('tbody tr:not(.relevant):not(.not-relevant)').first().getByTestId('pool-qrels')).toHaveText('—');
  // Each trajectory line is labelled: at its end on the chart, and in a legend with ranks, title and relevance.
  const lines = await rankChart.locator('.recharts-line').count();
  await expect(rankChart.locator('text.trajectory-label')).toHaveCount(lines);
  const trajectoryLegend = rankChart.getByRole('list', { name: 'Trajectory lines' }).getByRole('listitem');
  await expect(trajectoryLegend).toHaveCount(lines);
  await expect(trajectoryLegend.first()).toHaveText(/^\s*rank \d+ → 1 · .+ \(m\d+\)( · ✓ relevant \(rel \d\)| · ✗ not relevant \(rel 0\)| · unjudged)$/);

  // The sweep was saved as runs: after a reload it is listed and its chart comes back from them.
  await page.reload();
  await page.getByRole('region', { name: 'Saved sweeps' }).getByRole('button', { name: 'Meridian α' }).click();
  await expect(page.getByTestId('alpha-chart').locator('.recharts-line-dots circle')).toHaveCount(22);
  await expect(page.getByTestId('alpha-chart').locator('.recharts-reference-line')).toHaveCount(4);
  // The inspector recomputes the children of one query when the sweep's prepared queries are gone.
  await page.getByRole('button', { name: 'Inspect q01' }).click();
  await expect(page.getByTestId('inspector-path')).toContainText('single-vector cosine');

  // …and each grid point and baseline is an ordinary saved run.
  await page.goto('/#/runs');
  await expect(page.getByText('Meridian α · GQR α 0.5 · target fixed', { exact: true })).toBeVisible();
  await expect(page.getByText('Meridian α · RRF k=60', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Meridian α · best CC w=[\d.]+ \(by nDCG@10\)$/)).toBeVisible();

  // GQR is also an ordinary pipeline of the Runs page (stored queries through the retrieval worker).
  await page.getByLabel('Pipeline', { exact: true }).selectOption('gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  // The form says what each setting is in words; the reference's name opens its tooltip.
  const alphaField = page.locator('label', { has: page.getByLabel('GQR mixtureAlpha') });
  await expect(alphaField).toContainText('BM25 weight α');
  await expect(alphaField).toHaveAttribute('title', /^mixtureAlpha: weight of the BM25 distribution/);
  await page.getByLabel('GQR mixtureAlpha').fill('1');
  await page.getByLabel('Results per query (k)').fill('10');
  await page.getByLabel('Run name').fill('GQR α 1 from the Runs page');
  await page.getByRole('button', { name: /^Run over 54 queries/ }).click();
  await expect(page.getByTestId('run-done')).toContainText('Saved “GQR α 1 from the Runs page”: 54 queries');
  // …and scores exactly what the sweep's grid point with the same settings scored.
  await expect(page.getByTestId('run-done')).toContainText(`nDCG@10 ${alphaOne}`);
});

test('identical series are told apart and said to coincide; a best point below a baseline says so', async ({ page }) => {
  await loadAndEmbedSample(page);
  await page.goto('/#/gqr');
  // One step: the per-step target is the fixed target, so the two lines are identical.
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.5, 1');
  await page.getByLabel('Grid nSteps').fill('1');
  await page.getByLabel('Sweep name').fill('One step');
  await page.getByRole('button', { name: /^Run sweep: 6 grid points × 54 queries/ }).click();
  await expect(page.getByTestId('sweep-summary')).toContainText('6 grid points × 54 queries');
  const chart = page.getByTestId('alpha-chart');
  await expect(chart.locator('.recharts-line')).toHaveCount(2);
  await expect(page.getByTestId('coincidence-note').first()).toHaveText(
    '“GQR steps 1 · target per-step” and “GQR steps 1 · target fixed” coincide (the same value at every α): the lines lie on top of each other, the wider one underneath.',
  );
  // The line underneath is wider (with bigger dots), so both show.
  const widths = await chart.locator('.recharts-line-curve').evaluateAll((paths) => paths.map((p) => Number(p.getAttribute('stroke-width'))));
  expect(widths[0]).toBeGreaterThan(widths[1]!);

  // "Best" is the best GQR point; baselines above it are named.
  const legend = await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').allTextContents();
  const baselines = legend.flatMap((text) => {
    const m = /^\s*(.+): (\d\.\d{4})$/.exec(text);
    return m ? [{ label: m[1]!, value: Number(m[2]) }] : [];
  });
  expect(baselines.length).toBe(4);
  const bestText = (await page.getByTestId('best-point').textContent())!;
  const best = Number(/Best: nDCG@10 (\d\.\d{4})/.exec(bestText)![1]);
  const above = baselines.filter((b) => b.value > best);
  if (above.length === 0) expect(bestText).not.toContain('below');
  else {
    expect(bestText).toContain('the best GQR point, below');
    for (const b of above) expect(bestText).toContain(`${b.label} (${b.value.toFixed(4)})`);
    await expect(chart.locator('text').filter({ hasText: /^best GQR$/ })).toHaveCount(1);
  }
});
