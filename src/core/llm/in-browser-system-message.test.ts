// The Model → System message of the in-browser provider: from the page's settings to the prompt its model reads.
// transformers.js's real tokenizer renders the chat (Qwen2.5's template, the non-tool part, as the local model of
// `npm run models` has it); the stand-in pipeline does what TextGenerationPipeline does with chat input: render it
// with apply_chat_template (tokenize false, generation prompt) and generate after it.
import { PreTrainedTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import type { TransformersModule } from '../embedding/index.ts';
import { newLlmCallRecord, recordedLlmCall } from '../hds/index.ts';
import { createLlmProvider, samplingOf, type InBrowserModelSettings } from './provider-settings.ts';

const QWEN25_CHAT_TEMPLATE = [
  "{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}",
  "{%- else %}{{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}{%- endif %}",
  '{%- for message in messages %}',
  '{%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant") %}',
  "{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}",
  '{%- endif %}{%- endfor %}',
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}",
].join('');

function chatModel() {
  const tokenizer = new PreTrainedTokenizer(
    {
      version: '1.0',
      added_tokens: [],
      normalizer: null,
      pre_tokenizer: { type: 'Whitespace' },
      post_processor: null,
      decoder: null,
      model: { type: 'WordLevel', vocab: { '[UNK]': 0 }, unk_token: '[UNK]' },
    },
    { chat_template: QWEN25_CHAT_TEMPLATE },
  );
  const prompts: string[] = [];
  class TextStreamer {
    constructor(
      readonly tokenizer: unknown,
      readonly opts: { callback_function(text: string): void; token_callback_function(tokens: bigint[]): void },
    ) {}
  }
  const module = {
    env: {},
    TextStreamer,
    InterruptableStoppingCriteria: class {
      interrupt() {}
    },
    async pipeline() {
      const generator = async (messages: Array<{ role: string; content: string }>, kwargs: { streamer: TextStreamer }) => {
        prompts.push(tokenizer.apply_chat_template(messages, { tokenize: false, add_generation_prompt: true }) as string);
        kwargs.streamer.opts.token_callback_function([1n]);
        kwargs.streamer.opts.callback_function('\\boxed{Saltmere}');
        return [{ generated_text: [...messages, { role: 'assistant', content: '\\boxed{Saltmere}' }] }];
      };
      generator.tokenizer = tokenizer;
      return generator;
    },
  };
  return { module: module as unknown as TransformersModule, prompts };
}

const PLAN_PROMPT = 'Question: Who founded the tide mill?';

async function askWith(settings: InBrowserModelSettings) {
  const model = chatModel();
  const provider = createLlmProvider(settings, { transformers: async () => model.module });
  const sampling = samplingOf(settings);
  const record = newLlmCallRecord(PLAN_PROMPT, 0);
  const response = await recordedLlmCall(provider, record, { at: () => 0, systemPrompt: sampling.systemPrompt });
  return { prompt: model.prompts[0], record, response, sampling };
}

describe('the in-browser provider with a system message', () => {
  it('puts the system message, trimmed, in the chat template as its system turn, before the prompt, and records it', async () => {
    const { prompt, record, response, sampling } = await askWith({
      kind: 'transformers',
      modelId: 'org/tiny-chat',
      device: 'wasm',
      maxTokens: 24,
      systemPrompt: '  Search first: write queries between the tokens.\n',
    });
    expect(sampling).toEqual({ maxTokens: 24, systemPrompt: 'Search first: write queries between the tokens.' });
    expect(prompt).toBe(
      '<|im_start|>system\nSearch first: write queries between the tokens.<|im_end|>\n' +
        `<|im_start|>user\n${PLAN_PROMPT}<|im_end|>\n` +
        '<|im_start|>assistant\n',
    );
    expect(record.systemPrompt).toBe('Search first: write queries between the tokens.');
    expect(response.content).toBe('\\boxed{Saltmere}');
  });

  it('sends none when it is blank: the template keeps its own default system turn, and nothing is recorded', async () => {
    const { prompt, record, sampling } = await askWith({ kind: 'transformers', modelId: 'org/tiny-chat', device: 'wasm', systemPrompt: ' \n ' });
    expect(sampling).toEqual({});
    expect(prompt).toBe(
      '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' +
        `<|im_start|>user\n${PLAN_PROMPT}<|im_end|>\n` +
        '<|im_start|>assistant\n',
    );
    expect(record.systemPrompt).toBeUndefined();
  });
});
