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
