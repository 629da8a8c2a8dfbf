// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PerQueryTable } from './PerQueryTable.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const rows = [
  { queryId: 'q2', query: 'beta', baseline: 0.5, run: 0.25, delta: -0.25 },
  { queryId: 'q10', query: 'alpha', baseline: 0, run: 1, delta: 1 },
  { queryId: 'q1', query: 'gamma', baseline: 0.5, run: 0.5, delta: 0 },
];

let container: HTMLDivElement;
let root: Root;
let opened: string[];

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  opened = [];
  act(() => root.render(<PerQueryTable rows={rows} measure="nDCG@10" baselineName="A" runName="B" openQueryId={null} onOpen={(id) => opened.push(id)} />));
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const ids = () => [...container.querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent);
const header = (label: string) =>
  [...container.querySelectorAll('th button')].find((b) => b.textContent?.replace(/ [▲▼]$/, '') === label) as HTMLButtonElement;

describe('PerQueryTable', () => {
  it('sorts numbers descending first, then ascending; ids in natural order', () => {
    expect(ids()).toEqual(['q2', 'q10', 'q1']);
    act(() => header('Δ').click());
    expect(ids()).toEqual(['q10', 'q1', 'q2']);
    expect(container.querySelector('th[aria-sort="descending"]')?.textContent).toContain('Δ');
    act(() => header('Δ').click());
    expect(ids()).toEqual(['q2', 'q1', 'q10']);
    act(() => header('Query id').click());
    expect(ids()).toEqual(['q1', 'q2', 'q10']);
    act(() => header('Query id').click());
    expect(ids()).toEqual(['q10', 'q2', 'q1']);
    // Text columns start ascending: alpha, beta, gamma.
    act(() => header('Query').click());
    expect(ids()).toEqual(['q10', 'q2', 'q1']);
    act(() => header('Query').click());
    expect(ids()).toEqual(['q1', 'q2', 'q10']);
  });

  it('shows signed deltas and opens a query', () => {
    const cells = [...container.querySelectorAll('tbody tr td:nth-child(5)')].map((td) => td.textContent);
    expect(cells).toEqual(['−0.2500', '+1.0000', '0.0000']);
    act(() => (container.querySelector('tbody tr:nth-child(2) button') as HTMLButtonElement).click());
    expect(opened).toEqual(['q10']);
  });
});
