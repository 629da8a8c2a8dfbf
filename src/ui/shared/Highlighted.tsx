import type { TextSegment } from '../../core/index.ts';

/** Text with matched words marked. Segments are rendered as text nodes, never as HTML. */
export function Highlighted({ segments }: { segments: TextSegment[] }) {
  return (
    <>
      {segments.map((segment, i) => (segment.match ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>))}
    </>
  );
}
