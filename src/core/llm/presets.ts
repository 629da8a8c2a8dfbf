/** A known OpenAI-compatible server, with what a user needs to know to connect to it. */
export interface LlmPreset {
  /** Stable identifier, e.g. `ollama`. */
  id: string;
  /** Display name. */
  label: string;
  /** Default base URL (the part before `/chat/completions`). */
  baseUrl: string;
  /** Whether the server needs an API key. */
  needsApiKey: boolean;
  /** A model name to prefill, when the server has an obvious one. */
  exampleModel?: string;
  /** Practical advice: CORS, reasoning output, keys. */
  notes: string;
}

/** Presets offered in the model settings. */
export const LLM_PRESETS: readonly LlmPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    needsApiKey: true,
    exampleModel: 'gpt-4o-mini',
    notes: 'Needs an API key. The key stays in this browser and is sent only in the Authorization header.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsApiKey: true,
    exampleModel: 'openai/gpt-4o-mini',
    notes: 'Needs an OpenRouter API key. Reasoning models stream their reasoning in a separate `reasoning` field, shown apart from the answer.',
  },
  {
    id: 'ollama',
    label: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    needsApiKey: false,
    notes:
      'No key needed. Ollama refuses requests from web pages it does not know: start it with OLLAMA_ORIGINS set to this page\'s origin (or "*"), e.g. `OLLAMA_ORIGINS="*" ollama serve`.',
  },
  {
    id: 'vllm',
    label: 'vLLM',
    baseUrl: 'http://localhost:8000/v1',
    needsApiKey: false,
    notes:
      'A key is needed only if the server was started with --api-key. Cross-origin requests are allowed by default; --allowed-origins restricts them. Start it with a --reasoning-parser to get the reasoning separately.',
  },
  {
    id: 'llamacpp',
    label: 'llama.cpp server',
    baseUrl: 'http://localhost:8080/v1',
    needsApiKey: false,
    notes:
      'A key is needed only if llama-server was started with --api-key. Cross-origin requests are allowed by default; recent versions can restrict them with --cors-origins. With --reasoning-format deepseek the reasoning arrives in `reasoning_content`.',
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    needsApiKey: false,
    notes: 'No key needed. Enable CORS in the Developer tab server settings, or start the server with `lms server start --cors`.',
  },
];

/** The preset with this id, or undefined. */
export function findLlmPreset(id: string): LlmPreset | undefined {
  return LLM_PRESETS.find((p) => p.id === id);
}
