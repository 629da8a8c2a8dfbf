import * as Comlink from 'comlink';
import { useState } from 'react';
import { findLlmPreset, LLM_PRESETS, NUMERIC_RULES, type ConnectionTestResult, type LlmProviderSettings } from '../../core/index.ts';
import { InBrowserModelNotes } from './InBrowserModelNotes.tsx';
import { NumberField } from '../shared/NumberField.tsx';
import { errorMessage, formatBytes } from '../shared/format.ts';
import type { HdsWorkerEvent } from '../../workers/hds-worker-api.ts';
import { getHdsWorker } from '../services/workers.ts';
import { useHdsRun } from './run-state.ts';
import { CUSTOM_PRESET, IN_BROWSER, useHdsSettings } from './settings-state.ts';

/** What a connection test checked: a result says nothing about other settings. */
function connectionTarget(provider: LlmProviderSettings): string {
  return provider.kind === 'transformers'
    ? JSON.stringify([provider.kind, provider.modelId, provider.device])
    : JSON.stringify([provider.kind, provider.presetId, provider.baseUrl.trim(), provider.model.trim(), provider.apiKey?.trim() ?? '']);
}

/** The chat model: a preset OpenAI-compatible server, a custom one, or a small model run in the browser. */
export function ModelSettings() {
  const { provider, choosePreset, setProvider } = useHdsSettings();
  const modelProgress = useHdsRun((s) => s.modelProgress);
  const [tested, setTested] = useState<{ target: string; result: ConnectionTestResult | 'testing' } | null>(null);
  const target = connectionTarget(provider);
  // A result shows only while the base URL, model and key are the ones tested; any change clears it.
  const test = tested && tested.target === target ? tested.result : null;
  const setTest = (result: ConnectionTestResult | 'testing' | null) => setTested(result === null ? null : { target, result });
  const choice = provider.kind === 'transformers' ? IN_BROWSER : provider.presetId;
  const preset = provider.kind === 'openai-compatible' ? findLlmPreset(provider.presetId) : undefined;

  const runTest = async () => {
    setTest('testing');
    try {
      setTest(
        await getHdsWorker().testConnection(
          provider,
          Comlink.proxy((event: HdsWorkerEvent) => {
            if (event.type === 'model-progress') useHdsRun.setState({ modelProgress: event.progress.status === 'ready' ? null : event.progress });
          }),
        ),
      );
    } catch (error) {
      setTest({ ok: false, message: errorMessage(error) });
    }
  };

  return (
    <fieldset className="model-settings" aria-label="Model">
      <legend>Model</legend>
      <label>
        Provider{' '}
        <select
          aria-label="Provider"
          value={choice}
          onChange={(e) => {
            setTest(null);
            choosePreset(e.target.value);
          }}
        >
          {LLM_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value={CUSTOM_PRESET}>Other OpenAI-compatible server</option>
          <option value={IN_BROWSER}>In this browser (transformers.js)</option>
        </select>
      </label>
      {provider.kind === 'openai-compatible' ? (
        <>
          <label>
            Base URL{' '}
            <input className="wide" aria-label="Base URL" value={provider.baseUrl} placeholder="http://localhost:8000/v1" onChange={(e) => setProvider({ baseUrl: e.target.value })} />
          </label>
          <label>
            Model <input aria-label="Model name" value={provider.model} placeholder={preset?.exampleModel ?? 'model name'} onChange={(e) => setProvider({ model: e.target.value })} />
          </label>
          <label>
            API key{' '}
            <input
              type="password"
              aria-label="API key"
              autoComplete="off"
              value={provider.apiKey ?? ''}
              placeholder={preset && !preset.needsApiKey ? 'not needed' : 'sk-…'}
              onChange={(e) => setProvider({ apiKey: e.target.value } as Partial<LlmProviderSettings>)}
            />
          </label>
        </>
      ) : (
        <>
          <label>
            Model id <input className="wide" aria-label="In-browser model id" value={provider.modelId} onChange={(e) => setProvider({ modelId: e.target.value } as Partial<LlmProviderSettings>)} />
          </label>
          <label>
            Device{' '}
            <select aria-label="Device" value={provider.device} onChange={(e) => setProvider({ device: e.target.value } as Partial<LlmProviderSettings>)}>
              <option value="auto">WebGPU when available</option>
              <option value="webgpu">WebGPU</option>
              <option value="wasm">CPU (wasm)</option>
            </select>
          </label>
        </>
      )}
      {/* Both kinds: a system message in the request (HTTP) or a system turn of the model's chat template (in-browser). */}
      <label className="system-prompt">
        System message{' '}
        <textarea
          aria-label="System message"
          rows={3}
          value={provider.systemPrompt ?? ''}
          placeholder="none (as the reference): sent before the Hybrid Deep Searcher plan prompts only (never the final prompt or the baselines'), saved with the run"
          onChange={(e) => setProvider({ systemPrompt: e.target.value })}
        />
      </label>
      <label>
        Temperature{' '}
        <NumberField
          optional
          rule={NUMERIC_RULES.temperature}
          aria-label="Temperature"
          step={0.1}
          value={provider.temperature}
          placeholder="default"
          onChange={(temperature) => setProvider({ temperature })}
        />
      </label>
      <label>
        Max tokens{' '}
        <NumberField
          optional
          rule={NUMERIC_RULES.maxTokens}
          aria-label="Max tokens"
          value={provider.maxTokens}
          placeholder="default"
          onChange={(maxTokens) => setProvider({ maxTokens })}
        />
      </label>
      {provider.kind === 'openai-compatible' && (
        <>
          <label title="Nucleus sampling; not sent when empty (the server's default)">
            Top p{' '}
            <NumberField optional rule={NUMERIC_RULES.topP} aria-label="Top p" step={0.05} value={provider.topP} placeholder="default" onChange={(topP) => setProvider({ topP })} />
          </label>
          <label title="llama.cpp's repeat_penalty (1 = none); not sent when empty">
            Repeat penalty{' '}
            <NumberField optional rule={NUMERIC_RULES.repeatPenalty} aria-label="Repeat penalty" step={0.05} value={provider.repeatPenalty} placeholder="default" onChange={(repeatPenalty) => setProvider({ repeatPenalty })} />
          </label>
          <label title="The sampler's seed, so a run at temperature above 0 can be repeated on the same server; not sent when empty">
            Seed{' '}
            <NumberField optional rule={NUMERIC_RULES.seed} aria-label="Seed" step={1} value={provider.seed} placeholder="none" onChange={(seed) => setProvider({ seed })} />
          </label>
          <label title="OpenAI's frequency_penalty; not sent when empty">
            Frequency penalty{' '}
            <NumberField optional rule={NUMERIC_RULES.penalty} aria-label="Frequency penalty" step={0.1} value={provider.frequencyPenalty} placeholder="default" onChange={(frequencyPenalty) => setProvider({ frequencyPenalty })} />
          </label>
          <label title="The server continues a pre-filled assistant message (llama.cpp, vLLM): the final answer can be forced to start with \boxed{">
            <input type="checkbox" aria-label="Server continues a pre-filled answer" checked={provider.assistantPrefill === true} onChange={(e) => setProvider({ assistantPrefill: e.target.checked } as Partial<LlmProviderSettings>)} /> continues a
            pre-filled answer
          </label>
        </>
      )}
      <button type="button" onClick={() => void runTest()} disabled={test === 'testing'}>
        {provider.kind === 'transformers' ? 'Download and load the model' : 'Test connection'}
      </button>
      <div className="model-notes">
        {provider.kind === 'transformers' ? (
          <InBrowserModelNotes modelId={provider.modelId} onUse={(modelId) => setProvider({ modelId } as Partial<LlmProviderSettings>)} />
        ) : (
          <>
            {preset && <p className="hint">{preset.notes}</p>}
            <p className="hint">The API key is kept in this browser only (IndexedDB) and is never written into saved runs, exports or logs.</p>
          </>
        )}
        {modelProgress && <ModelProgress progress={modelProgress} />}
        {test === 'testing' && <p className="meta">Testing…</p>}
        {test && test !== 'testing' && (
          <p className={test.ok ? 'ok' : 'error'} role="status" data-testid="connection-result">
            {test.message}
          </p>
        )}
      </div>
    </fieldset>
  );
}

function ModelProgress({ progress }: { progress: { status: string; file?: string; loaded?: number; total?: number; progress?: number } }) {
  return (
    <div className="model-progress" role="status">
      <span className="meta">
        Loading the model{progress.file ? `: ${progress.file}` : ''}
        {progress.loaded !== undefined && progress.total ? ` ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}` : ''}
      </span>
      {progress.progress !== undefined && <progress max={100} value={progress.progress} />}
    </div>
  );
}
