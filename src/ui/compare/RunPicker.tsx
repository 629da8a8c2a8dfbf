import { useState } from 'react';
import { selectionState, selectRange, setSelected, type RunSummary } from '../../core/index.ts';
import { formatCount } from '../shared/format.ts';
import { RunFilterBox, useRunGroups } from '../shared/RunFilterBox.tsx';

/** The runs to compare, grouped by sweep like the Runs page, with its filter; the baseline is left out. */
export function RunPicker({ runs, ticked, onChange }: { runs: readonly RunSummary[]; ticked: ReadonlySet<string>; onChange: (next: Set<string>) => void }) {
  const listing = useRunGroups(runs);
  const [anchor, setAnchor] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const allShown = selectionState(listing.shown, ticked);
  return (
    <fieldset aria-label="Runs to compare" className="run-picker-set">
      <legend>Runs to compare</legend>
      <RunFilterBox state={listing} label="runs to compare" total={runs.length} />
      <div className="row">
        <label>
          <input
            type="checkbox"
            aria-label="Tick every run shown"
            checked={allShown === 'all'}
            ref={(el) => {
              if (el) el.indeterminate = allShown === 'some';
            }}
            onChange={(e) => onChange(setSelected(ticked, listing.shown, e.target.checked))}
          />{' '}
          All shown ({formatCount(listing.shown.length)})
        </label>
        {ticked.size > 0 && (
          <button type="button" onClick={() => onChange(new Set())}>
            Untick all
          </button>
        )}
      </div>
      <div className="run-picker">
        {listing.groups.map((group) => {
          const ids = group.runs.map((r) => r.id);
          const state = selectionState(ids, ticked);
          const open = !collapsed.has(group.key);
          return (
            <div key={group.key} data-testid="picker-group">
              <div className="group-row">
                <input
                  type="checkbox"
                  aria-label={`Tick every run of “${group.title}”`}
                  checked={state === 'all'}
                  ref={(el) => {
                    if (el) el.indeterminate = state === 'some';
                  }}
                  onChange={(e) => onChange(setSelected(ticked, ids, e.target.checked))}
                />
                <button type="button" className="link" aria-expanded={open} onClick={() => setCollapsed((c) => setSelected(c, [group.key], open))}>
                  {open ? '▾' : '▸'} {group.kind === 'sweep' ? `Sweep “${group.title}”` : group.title}
                </button>
                <span className="meta">
                  {formatCount(ids.filter((id) => ticked.has(id)).length)} of {formatCount(group.runs.length)} ticked
                </span>
              </div>
              {open && (
                <div className="group-runs">
                  {group.runs.map((r) => (
                    <label key={r.id}>
                      <input
                        type="checkbox"
                        checked={ticked.has(r.id)}
                        onChange={() => {}}
                        onClick={(e) => {
                          const on = e.currentTarget.checked;
                          onChange(e.shiftKey ? selectRange(listing.shown, anchor, r.id, ticked, on) : setSelected(ticked, [r.id], on));
                          setAnchor(r.id);
                        }}
                      />{' '}
                      {r.name}
                    </label>
                  ))}
                </div>
              )}
            </div>
          );
        })}
        {listing.groups.length === 0 && <p className="hint">No run matches the filter.</p>}
      </div>
    </fieldset>
  );
}
