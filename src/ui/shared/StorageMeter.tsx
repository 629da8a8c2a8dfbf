import { formatBytes } from './format.ts';
import { useStorageInfo } from './corpora.ts';

/** How much of the browser's quota this site uses, and whether its data is protected from eviction. */
export function StorageMeter() {
  const { data } = useStorageInfo();
  if (!data) return null;
  return (
    <span className="storage-meter" title={data.persisted ? 'Persistent: the browser will not evict this data' : 'Best effort: the browser may evict this data under storage pressure'}>
      Storage: {formatBytes(data.usage)} of {formatBytes(data.quota)} {data.persisted ? '(persistent)' : ''}
    </span>
  );
}
