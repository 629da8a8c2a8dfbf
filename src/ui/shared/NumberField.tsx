import { useEffect, useRef, useState, type InputHTMLAttributes } from 'react';
import { numberProblem, type NumericRule } from '../../core/index.ts';

interface CommonProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'min' | 'max'> {
  min?: number;
  max?: number;
  /** Only whole numbers are accepted. */
  integer?: boolean;
  /** The shared range of this setting (core NUMERIC_RULES); sets min, max and integer. */
  rule?: NumericRule;
  /** Told what is wrong with the typed text (null once it is valid), so a form can disable its run button. */
  onProblem?: (problem: string | null) => void;
}

type NumberFieldProps = CommonProps &
  (
    | { optional?: false; value: number; onChange(value: number): void }
    /** An empty field is valid and means "not set" (e.g. the server's default). */
    | { optional: true; value: number | undefined; onChange(value: number | undefined): void }
  );

/**
 * A number input that never rewrites what is being typed: the value changes only when the text is a valid number
 * within bounds; otherwise the field is marked invalid with a message saying what it accepts.
 */
export function NumberField(props: NumberFieldProps) {
  const { value, onChange, optional, rule, onProblem, ...rest } = props;
  const min = rule?.min ?? props.min;
  const max = rule?.max ?? props.max;
  const integer = rule?.integer ?? props.integer ?? false;
  const aboveMin = rule?.aboveMin ?? false;
  delete (rest as CommonProps).min;
  delete (rest as CommonProps).max;
  delete (rest as CommonProps).integer;
  const shown = value === undefined ? '' : String(value);
  const [text, setText] = useState(shown);
  // Follow changes from outside (a preset button), unless the text already means that value.
  useEffect(() => {
    setText((current) => (current.trim() === '' ? shown : Number(current) === value ? current : shown));
  }, [value, shown]);
  const problemOf = (t: string) => (optional && t.trim() === '' ? null : check(t, min, max, integer, aboveMin));
  const problem = problemOf(text);
  const onProblemRef = useRef(onProblem);
  onProblemRef.current = onProblem;
  useEffect(() => {
    onProblemRef.current?.(problem);
  }, [problem]);
  useEffect(() => () => onProblemRef.current?.(null), []); // a field that goes away blocks nothing
  return (
    <input
      {...rest}
      type="number"
      min={min}
      max={max}
      step={rest.step ?? (integer ? 1 : 'any')}
      value={text}
      aria-invalid={problem ? true : undefined}
      title={problem ?? rest.title}
      className={[rest.className, problem ? 'invalid' : ''].filter(Boolean).join(' ') || undefined}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        if (problemOf(next)) return;
        if (optional && next.trim() === '') (onChange as (v: number | undefined) => void)(undefined);
        else (onChange as (v: number) => void)(Number(next));
      }}
    />
  );
}

/** Why `text` is not acceptable, or null (the decision is the core's numeric rule check). */
export function check(text: string, min: number | undefined, max: number | undefined, integer: boolean, aboveMin = false): string | null {
  if (!numberProblem({ min: min ?? -Infinity, max: max ?? Infinity, integer, aboveMin }, text)) return null;
  const n = Number(text);
  const range = aboveMin ? `above ${min}, up to ${max ?? '∞'}` : `from ${min ?? '−∞'} to ${max ?? '∞'}`;
  if (text.trim() === '' || !Number.isFinite(n)) return `Enter a ${integer ? 'whole number' : 'number'} ${range}`;
  if (integer && !Number.isInteger(n)) return `Enter a whole number ${range}`;
  return `Enter a number ${range}`;
}
