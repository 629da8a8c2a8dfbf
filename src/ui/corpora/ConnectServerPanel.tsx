import { useState } from 'react';
import { normalizeServerUrl, remoteCorpusRecord, type ServedCorpusInfo } from '../../core/index.ts';
import { addRemoteCorpus, getCorpusStore, getSettingsStore, serverClient } from '../services/stores.ts';
import { useAppStore } from '../shared/app-store.ts';
import { announceCorporaChanged } from '../shared/corpora-channel.ts';
import { errorMessage, formatCount } from '../shared/format.ts';

const LAST_SERVER_KEY = 'dsw-last-server';

type Check = { status: 'idle' } | { status: 'checking' } | { status: 'ok'; server: string; corpora: ServedCorpusInfo[] } | { status: 'failed'; message: string };

/** "Connect to a workbench server": a corpus served by `dsw serve` joins the corpus list as a reference. */
export function ConnectServerPanel() {
  const [address, setAddress] = useState(() => localStorage.getItem(LAST_SERVER_KEY) ?? 'http://127.0.0.1:8790');
  const [token, setToken] = useState('');
  const [check, setCheck] = useState<Check>({ status: 'idle' });
  const [added, setAdded] = useState<string | null>(null);
  const { setCorpusId } = useAppStore();

  const connect = async () => {
    setAdded(null);
    setCheck({ status: 'checking' });
    try {
      const server = normalizeServerUrl(address);
      const client = await serverClient(server, token || undefined);
      await client.health();
      const corpora = await client.listCorpora();
      localStorage.setItem(LAST_SERVER_KEY, server);
      if (token) await (await getSettingsStore()).saveServerToken(server, token);
      setCheck({ status: 'ok', server, corpora });
    } catch (error) {
      setCheck({ status: 'failed', message: errorMessage(error) });
    }
  };

  const add = async (server: string, info: ServedCorpusInfo) => {
    try {
      const existing = (await (await getCorpusStore()).listCorpora()).find((c) => c.remote?.server === server && c.remote.corpusId === info.id);
      if (existing) {
        setCorpusId(existing.id);
        setAdded(`“${existing.name}” is already in your corpora.`);
        return;
      }
      const record = remoteCorpusRecord(`remote-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, server, info);
      await addRemoteCorpus(record);
      await announceCorporaChanged();
      setCorpusId(record.id);
      setAdded(`Added “${record.name}”: Search, Runs, Compare, the GQR lab and Deep search now work on it.`);
    } catch (error) {
      setAdded(`Could not add it: ${errorMessage(error)}`);
    }
  };

  return (
    <section className="panel" aria-labelledby="server-heading">
      <h2 id="server-heading">Connect to a workbench server</h2>
      <p className="hint">
        For corpora larger than this tab can hold: run <code>npx dsw serve --dataset &lt;folder&gt; [--model &lt;folder&gt;]</code> and connect to it. Only a
        reference (address and corpus identity) is stored here; runs are saved in this browser.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void connect();
        }}
      >
        <label>
          Server address <input value={address} onChange={(e) => setAddress(e.target.value)} spellCheck={false} size={32} />
        </label>
        <label>
          Token (optional) <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" disabled={check.status === 'checking'}>
          Check connection
        </button>
      </form>
      {check.status === 'checking' && <p role="status">Connecting…</p>}
      {check.status === 'failed' && (
        <p className="error" role="alert">
          {check.message}
        </p>
      )}
      {check.status === 'ok' && (
        <div role="status">
          <p>
            Connected to {check.server}: it serves {check.corpora.length === 1 ? 'one corpus' : `${check.corpora.length} corpora`}.
          </p>
          <ul className="corpus-list">
            {check.corpora.map((c) => (
              <li key={c.id} data-testid="served-corpus">
                <strong>{c.name}</strong>{' '}
                <span className="meta">
                  {formatCount(c.documentCount)} documents · {formatCount(c.queryCount)} queries · {formatCount(c.qrelCount)} qrels ·{' '}
                  {c.embeddingSets.length === 0 ? 'BM25 only (no vectors)' : `vectors: ${c.embeddingSets.map((s) => s.model.modelId).join(', ')}`}
                </span>{' '}
                <button onClick={() => void add(check.server, c)}>Add “{c.name}”</button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {added && <p role="status">{added}</p>}
    </section>
  );
}
