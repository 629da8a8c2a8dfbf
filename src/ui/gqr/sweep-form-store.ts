// What the GQR lab's "New sweep" form holds, outside the page: leaving the lab and coming back (or reloading the
// tab) finds the form as it was left. Kept in sessionStorage: this tab only, no credentials in it.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_GQR_CONFIG, OKAPI_BM25, type Bm25Params, type GqrConfig, type SweepKey } from '../../core/index.ts';

/** The grid a new sweep starts with: 11 values of α, per-step against fixed target (G1 in docs/decisions.md). */
export const INITIAL_GRID: Partial<Record<SweepKey, string>> = {
  mixtureAlpha: '0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1',
  target: 'per-step, fixed',
};

export const SWEEP_MEASURES = ['nDCG@10', 'R@10', 'RR@10'];

/** The form's values. */
export interface SweepFormValues {
  /** The chosen embedding set ('' = the first one). */
  modelKey: string;
  searchMode: 'single' | 'multi';
  bm25: Bm25Params;
  /** The fixed GQR settings the grid overrides. */
  base: GqrConfig;
  /** The grid as typed, per key. */
  gridText: Partial<Record<SweepKey, string>>;
  topK: number;
  measures: string[];
  name: string;
}

interface SweepFormStore extends SweepFormValues {
  update(patch: Partial<SweepFormValues>): void;
  reset(): void;
}

export const INITIAL_SWEEP_FORM: SweepFormValues = {
  modelKey: '',
  searchMode: 'single',
  bm25: { ...OKAPI_BM25 },
  base: { ...DEFAULT_GQR_CONFIG },
  gridText: INITIAL_GRID,
  topK: 10,
  measures: SWEEP_MEASURES,
  name: '',
};

export const SWEEP_FORM_STORAGE_KEY = 'dsw-gqr-sweep-form';

export const useSweepForm = create<SweepFormStore>()(
  persist(
    (set) => ({
      ...INITIAL_SWEEP_FORM,
      update: (patch) => set(patch),
      reset: () => set(INITIAL_SWEEP_FORM),
    }),
    {
      name: SWEEP_FORM_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      // A stored form from an older shape keeps what still fits; the rest starts fresh.
      merge: (stored, current) => {
        const s = (stored ?? {}) as Partial<SweepFormValues>;
        return {
          ...current,
          ...s,
          bm25: { ...current.bm25, ...s.bm25 },
          base: { ...current.base, ...s.base },
          gridText: s.gridText ?? current.gridText,
        };
      },
    },
  ),
);
