import { ConnectServerPanel } from './ConnectServerPanel.tsx';
import { CorpusList } from './CorpusList.tsx';
import { LoadPanel } from './LoadPanel.tsx';
import { SnapshotPanel } from './SnapshotPanel.tsx';
import { LoadStatus } from './LoadStatus.tsx';

export function CorporaPage() {
  return (
    <>
      <LoadPanel />
      <LoadStatus />
      <CorpusList />
      <ConnectServerPanel />
      <SnapshotPanel />
    </>
  );
}
