// HDS as its authors run it (H9–H12), in the browser: stop sequences, why each reply ended, the exact messages one
// click away, the forced \boxed{ pre-fill without the search system message, and a batch's failure classes.
import { expect, test, type Page } from '@playwright/test';
import { OpenAiTestServer, type RecordedRequest, type ScriptedReply } from '../src/test-support/openai-test-server.ts';
import { loadSample } from './support.ts';

const B = '<|begin search queries|>';
const E = '<|end search queries|>';
const R = '<|begin search results|>';
type Message = { role: string; content: string };
const messagesOf = (request: RecordedRequest): Message[] => (request.body?.messages as Message[] | undefined) ?? [];
const userOf = (request: RecordedRequest) => messagesOf(request).find((m) => m.role === 'user')?.content ?? '';
const turnOf = (request: RecordedRequest) => Number(/Turn: (\d+)\//.exec(userOf(request))?.[1] ?? 0);

let server: OpenAiTestServer;
test.afterEach(async () => {
  await server?.close();
});

async function setUp(page: Page, respond: (request: RecordedRequest) => ScriptedReply) {
  server = new OpenAiTestServer({ respond });
  const baseUrl = await server.start();
  await loadSample(page);
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
}

test('a run stopped at each query block, a repeated block marked, and the answer forced into \\boxed{ without the system message', async ({ page }) => {
  await setUp(page, (request) => {
    const messages = messagesOf(request);
    if (messages.at(-1)?.role === 'assistant') return { content: 'Margery Fennick} because the log says so' };
    if (turnOf(request) === 1) return { content: `Reasoning: find the engineer.\n${B}Harrow Point Light engineer${E}\n${R}\nHe was called Bob.` };
    return { content: `${B}Harrow Point Light engineer${E}` }; // the same block again: nothing new to search
  });
  // The question box comes before the settings.
  const question = page.getByLabel('Question', { exact: true });
  const settings = page.getByRole('region', { name: 'Deep search settings' });
  expect((await question.boundingBox())!.y).toBeLessThan((await settings.boundingBox())!.y);

  await page.getByLabel('System message').fill('Always search first.');
  await page.getByLabel('Top p').fill('0.8');
  await page.getByLabel('Server continues a pre-filled answer').check();
  await page.getByLabel('max_turns').fill('2');
  await page.getByLabel('Plan prompt').selectOption('dsw-1');
  await page.getByLabel('Final answer').selectOption('boxed-prefix');
  await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed');
  const turn1 = timeline.getByRole('article', { name: 'Turn 1' });
  await expect(turn1.getByTestId('ended-by')).toHaveText('stopped at the query-block end');
  await expect(turn1.getByTestId('invented-results')).toHaveCount(0); // the stop came before the made-up results
  await turn1.getByTestId('messages-sent').locator('summary').click();
  await expect(turn1.getByTestId('messages-sent')).toContainText('Always search first.');
  await expect(turn1.getByTestId('messages-sent')).toContainText('Reasoning: '); // the dsw-1 plan prompt
  await expect(turn1.getByTestId('stop-sequences')).toContainText('“<|end search queries|>”, “<|end_search_queries|>”, “<|begin search results|>”, “<|begin_search_results|>”');
  await expect(turn1.getByTestId('stop-sequences')).toContainText('the server consumed “<|end search queries|>”, put back before parsing');
  const turn2 = timeline.getByRole('article', { name: 'Turn 2' });
  await expect(turn2.getByTestId('only-repeats')).toHaveText('repeated block');

  const final = timeline.getByRole('article', { name: 'Final prompt' });
  await final.getByTestId('messages-sent').locator('summary').click();
  await expect(final.getByTestId('messages-sent')).toContainText('answer asked as boxed-prefix');
  await expect(final.getByTestId('messages-sent')).toContainText('assistant (pre-filled; the reply continues it)');
  await expect(final.getByTestId('messages-sent')).not.toContainText('Always search first.');
  await expect(timeline.getByTestId('final-answer')).toContainText('Margery Fennick');

  const requests = server.chatRequests();
  expect(requests[0]!.body.stop).toEqual([E, '<|end_search_queries|>', R, '<|begin_search_results|>']);
  expect(requests[0]!.body.top_p).toBe(0.8);
  const last = requests.at(-1)!;
  expect(messagesOf(last).map((m) => m.role)).toEqual(['user', 'assistant']);
  expect(last.body.continue_final_message).toBe(true);
});

test('a batch counts its failure classes, and a class filters the question list', async ({ page }) => {
  await setUp(page, (request) => {
    const user = userOf(request);
    // mh01 gets a marked answer; the others an unmarked sentence (its short span is scored, H12).
    if (user.includes('Harrow Point lighthouse')) return { content: '\\boxed{Margery Fennick}' };
    return { content: 'I believe the answer is Saltmere, as far as I can tell.' };
  });
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByLabel('Number of questions').fill('3');
  for (const name of ['Single-shot RAG', 'IRCoT', 'Question decomposition']) await page.getByRole('group', { name: 'Baselines' }).getByLabel(name).uncheck();
  await page.getByRole('button', { name: 'Run batch' }).click();
  await expect(page.getByRole('heading', { name: /completed/ })).toBeVisible();
  const classes = page.getByRole('group', { name: 'Failure classes' });
  await expect(classes.getByRole('button', { name: 'unmarked answer: 2' })).toBeVisible();
  await expect(classes.getByRole('button', { name: 'cut by max_tokens: 0' })).toBeDisabled();
  const perQuestion = page.getByRole('table', { name: 'Per-question results' });
  await expect(perQuestion.getByRole('row')).toHaveCount(4);
  await expect(perQuestion).toContainText('scored as “Saltmere”');
  await classes.getByRole('button', { name: 'unmarked answer: 2' }).click();
  await expect(perQuestion.getByRole('row')).toHaveCount(3);
  await expect(perQuestion).not.toContainText('mh01');
  // Strict scores count marked answers only: mh01 right and marked; the two others unmarked.
  const comparison = page.getByRole('table', { name: 'Comparison' });
  await expect(comparison.getByRole('row', { name: /Hybrid Deep Searcher/ })).toContainText(/0\.333\s*0\.333\s*2/);
});

test('the question searched before turn 1: its own card, its passages in the first plan prompt and, under "passages shown", in the final prompt', async ({ page }) => {
  await setUp(page, (request) => {
    if (turnOf(request) === 1) return { content: `${B}Edmund Carrow scholarship college${E}` };
    return { content: '\\boxed{Margery Fennick}' };
  });
  await page.getByLabel('max_turns').fill('1');
  await page.getByLabel('question_search_k').fill('2');
  await page.getByLabel('Final context').selectOption('passages');
  await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed');
  const cards = timeline.getByTestId('turn-card');
  await expect(cards).toHaveCount(3);
  const first = cards.first();
  await expect(first).toHaveAttribute('aria-label', 'Question search');
  await expect(first.getByRole('heading', { level: 4 })).toHaveText('The question, searched before turn 1');
  await expect(first).toContainText('no LLM call · one search call · top 2');
  await expect(first.getByTestId('model-output')).toHaveCount(0);
  const question = await page.getByLabel('Question', { exact: true }).inputValue();
  const results = first.getByRole('region', { name: `Query: ${question}` });
  await expect(results).toContainText('2 result(s)');
  await expect(timeline.getByRole('article', { name: 'Turn 1' })).toContainText('search calls left at start: 7 of 8');

  const requests = server.chatRequests();
  expect(userOf(requests[0]!)).toContain(`<|begin search results|>\n${question}: `);
  const final = userOf(requests.at(-1)!);
  expect(final).toContain('Answer the question using the paragraphs below.');
  // After a reload the setting is kept, and the saved run replays with the question's card first, without the model.
  await page.reload();
  await expect(page.getByLabel('question_search_k')).toHaveValue('2');
  const before = server.chatRequests().length;
  await page.getByRole('button', { name: 'Saved runs' }).click();
  await page.getByTestId('saved-run').first().getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('replay-note')).toContainText('no model is called');
  await expect(timeline.getByTestId('turn-card').first()).toHaveAttribute('aria-label', 'Question search');
  await expect(timeline.getByTestId('turn-card').first().getByRole('region', { name: `Query: ${question}` })).toContainText('2 result(s)');
  expect(server.chatRequests().length).toBe(before);
});

test('a plan reply that loops is ended by the plan guard: its badge, what was cut, its queries run; the setting is kept', async ({ page }) => {
  const loop = `Reasoning: find the engineer.\n${B}Harrow Point Light engineer; ${'Edmund Carrow; '.repeat(60)}`;
  await setUp(page, (request) => {
    if (turnOf(request) === 1) return { content: loop, chunkChars: 6, finishReason: 'length' };
    return { content: '\\boxed{Margery Fennick}' };
  });
  await page.getByLabel('max_turns').fill('2');
  await page.getByLabel('end a reply that loops').check();
  await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed');
  const turn1 = timeline.getByRole('article', { name: 'Turn 1' });
  await expect(turn1.getByTestId('ended-by')).toHaveText('ended: the reply looped');
  await expect(turn1.getByTestId('guard-cut')).toContainText('where it repeated “Edmund Carrow” over and over');
  await expect(turn1.getByTestId('model-output')).toHaveText(`Reasoning: find the engineer.\n${B}Harrow Point Light engineer; Edmund Carrow${E}`);
  await expect(turn1.getByRole('region', { name: 'Query: Edmund Carrow' })).toBeVisible();
  await expect(timeline.getByTestId('final-answer')).toContainText('Margery Fennick');
  await page.reload();
  await expect(page.getByLabel('end a reply that loops')).toBeChecked();
});
